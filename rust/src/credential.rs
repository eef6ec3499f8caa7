//! The gate's learned credential part: candidates scored by a small linear model.
//!
//! The credential rules name the shapes they were written for; measured on other rows of the
//! same class they lose a quarter of their recall. This scores what a rule has not seen by the
//! class's own marks: the candidate's shape (length, character classes, entropy, how often the
//! class changes between neighbours, a provider's prefix) and the words around it (the name it
//! is given, the words before it on its line).
//!
//! A candidate is a run of token characters (letters, digits and `+/_-.~!@#$%^&*=?:`) that is
//! at least six characters long, once a leading `name=` / `name:` is cut off and sentence
//! punctuation trimmed, and that is not a plain word (it has a digit, a symbol or a capital
//! after its first letter, or it is given to a name). Each candidate becomes a set of named
//! features (`len:24-31`, `ent:4.25`, `cls:LUD`, `namehas:secret`, `ctx:commit`, ...), each
//! hashed (FNV-1a, 32 bits) into one of `2^bits` buckets; the score is
//! `bias + sum(w[b])` over the distinct buckets, read as a probability. Names are kept so a
//! finding can say which features raised it; `features_shown` never shows one that holds the
//! candidate's own characters.
//!
//! Training happens in Python (scripts/train_gate_credentials.py) on the buckets `candidates`
//! returns here, so training and scoring share one feature function; the pure-Python reference
//! (tests/reference/credential_reference.py) is the differential test's other side. Weights
//! file: `SHLXCRD1`, `bits` (u32), `bias` (f32), `scale` (f32), then `2^bits` i16 weights
//! (`w = q * scale`), little-endian.

use crate::error::Error;
use crate::scanner::AnyOf;

const MAGIC: &[u8; 8] = b"SHLXCRD1";
const HEADER: usize = 20;
/// A candidate shorter than this is not scored (a PIN is the rules' job).
pub const MIN_LEN: usize = 6;
/// Nor one longer: a blob this long is the high-entropy rule's.
pub const MAX_LEN: usize = 256;
/// How far before a candidate its line is read for context words (characters).
const CONTEXT_CHARS: usize = 60;
/// How many context words are kept (the nearest).
const CONTEXT_WORDS: usize = 6;
/// How far after a candidate the next word is looked for.
const NEXT_CHARS: usize = 24;

/// Stems whose presence in the candidate's name, or in the words before it, is a feature of
/// its own: the words a credential is given by, and the words an identifier is.
#[rustfmt::skip]
pub const STEMS: &[&str] = &[
    "access", "account", "api", "auth", "bearer", "build", "cert", "checksum", "client",
    "code", "commit", "cred", "digest", "email", "file", "hash", "host", "id", "key", "login",
    "md5", "name", "pass", "path", "pin", "port", "private", "pwd", "salt", "secret", "session",
    "sha", "sign", "token", "url", "user", "uuid", "version",
];

/// Stems that name a credential (for the `kw` conjunctions).
const KEY_STEMS: &[&str] = &[
    "auth", "bearer", "cred", "key", "pass", "private", "pwd", "secret", "session", "sign", "token",
];

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || "+/_-.~!@#$%^&*=?:".contains(c)
        || (!c.is_ascii() && c.is_alphabetic())
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-'
}

/// One candidate: its span in characters and its features by name.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub start: usize,
    pub end: usize,
    pub features: Vec<String>,
}

fn fnv1a(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in bytes {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// The bucket of a named feature under `2^bits` buckets.
pub fn bucket(feature: &str, bits: u32) -> u32 {
    fnv1a(feature.as_bytes()) & ((1u32 << bits) - 1)
}

/// The character class a transition counts: lower, upper, digit, other.
fn class_of(c: char) -> u8 {
    if c.is_ascii_lowercase() {
        0
    } else if c.is_ascii_uppercase() {
        1
    } else if c.is_ascii_digit() {
        2
    } else {
        3
    }
}

/// ASCII words (letters only, lower-cased) of `chars`, cut at anything else and where a
/// capital follows a small letter ("clientSecret" is "client", "secret").
fn words_of(chars: &[char]) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for &c in chars {
        if c.is_ascii_alphabetic() {
            if c.is_ascii_uppercase() && previous_lower && !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            word.push(c.to_ascii_lowercase());
            previous_lower = c.is_ascii_lowercase();
        } else {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            previous_lower = false;
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out.retain(|w| (2..=16).contains(&w.len()));
    out
}

fn length_bin(n: usize) -> &'static str {
    match n {
        0..=7 => "6-7",
        8..=11 => "8-11",
        12..=15 => "12-15",
        16..=19 => "16-19",
        20..=23 => "20-23",
        24..=31 => "24-31",
        32 => "32",
        33..=39 => "33-39",
        40 => "40",
        41..=63 => "41-63",
        64 => "64",
        _ => "65+",
    }
}

fn count_bin(n: usize) -> usize {
    n.min(3)
}

/// Shannon entropy in bits per character, summed in ascending order of count (as
/// `scanner::shannon_entropy`, and as the Python reference sums it).
fn entropy(value: &[char]) -> f64 {
    let mut sorted = value.to_vec();
    sorted.sort_unstable();
    let mut counts: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j < sorted.len() && sorted[j] == sorted[i] {
            j += 1;
        }
        counts.push(j - i);
        i = j;
    }
    counts.sort_unstable();
    let n = value.len() as f64;
    counts
        .into_iter()
        .map(|c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

fn text_lower(value: &[char]) -> String {
    value.iter().map(|c| c.to_ascii_lowercase()).collect()
}

fn is_hex(value: &[char]) -> bool {
    value.iter().all(|c| c.is_ascii_hexdigit())
}

fn is_uuid(value: &[char]) -> bool {
    let groups = [8, 4, 4, 4, 12];
    let parts: Vec<&[char]> = value.split(|&c| c == '-').collect();
    parts.len() == 5
        && parts
            .iter()
            .zip(groups)
            .all(|(part, n)| part.len() == n && is_hex(part))
}

fn is_version(value: &[char]) -> bool {
    let body = match value.first() {
        Some('v') | Some('V') => &value[1..],
        _ => value,
    };
    let core: &[char] = match body.iter().position(|&c| c == '-' || c == '+') {
        Some(at) => &body[..at],
        None => body,
    };
    let parts: Vec<&[char]> = core.split(|&c| c == '.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.iter().all(|c| c.is_ascii_digit()))
}

/// A bin of `part / whole` in tenths (integer arithmetic, so both sides agree).
fn tenths(part: usize, whole: usize) -> usize {
    (10 * part).checked_div(whole).map_or(0, |t| t.min(10))
}

/// Whether a stem that names a credential is in the name (joined words) or a context word
/// (inside a word for stems over three letters, the whole word otherwise).
fn near_keyword(joined_name: &str, context: &[String]) -> bool {
    KEY_STEMS.iter().any(|stem| {
        joined_name.contains(stem)
            || context.iter().any(|w| {
                if stem.len() <= 3 {
                    w == stem
                } else {
                    w.contains(stem)
                }
            })
    })
}

/// The features of the value `value`, given to `name` (empty when none) after `op`, with the
/// words before it on its line and the word after it.
fn features_of(
    value: &[char],
    name: &[char],
    op: &str,
    context: &[String],
    next: &str,
) -> Vec<String> {
    let n = value.len();
    let mut out: Vec<String> = Vec::with_capacity(64);
    out.push("bias".to_string());
    let (mut lower, mut upper, mut digit, mut symbol, mut other) = (0, 0, 0, 0, 0);
    let mut vowels = 0;
    for &c in value {
        match c {
            'a'..='z' => lower += 1,
            'A'..='Z' => upper += 1,
            '0'..='9' => digit += 1,
            _ if c.is_ascii() => symbol += 1,
            _ => other += 1,
        }
        if "aeiouAEIOU".contains(c) {
            vowels += 1;
        }
    }
    let letters = lower + upper;
    let mut classes = String::new();
    for (count, mark) in [
        (lower, 'L'),
        (upper, 'U'),
        (digit, 'D'),
        (symbol, 'S'),
        (other, 'N'),
    ] {
        if count > 0 {
            classes.push(mark);
        }
    }
    let len = length_bin(n);
    out.push(format!("len:{len}"));
    out.push(format!("cls:{classes}"));
    out.push(format!("cls:{classes}|len:{len}"));
    let bits = entropy(value);
    let ent = ((bits * 4.0).floor() as i64).min(24);
    out.push(format!("ent:{}", ent));
    out.push(format!("ent:{}|len:{len}", ent));
    out.push(format!("digits:{}", tenths(digit, n)));
    out.push(format!("upper:{}", tenths(upper, letters)));
    out.push(format!("vowels:{}", tenths(vowels, letters)));
    let mut distinct = value.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    out.push(format!("uniq:{}", tenths(distinct.len(), n)));
    let transitions = value
        .windows(2)
        .filter(|w| class_of(w[0]) != class_of(w[1]))
        .count();
    out.push(format!(
        "trans:{}",
        tenths(transitions, n.saturating_sub(1).max(1))
    ));
    // The longest run of letters: a word in a password ("hunter2"), none in a key.
    let mut longest = 0;
    let mut run = 0;
    for &c in value {
        if c.is_ascii_alphabetic() {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    out.push(format!(
        "run:{}",
        match longest {
            0..=2 => "0-2",
            3..=4 => "3-4",
            5..=7 => "5-7",
            _ => "8+",
        }
    ));
    let mut repeated = 1;
    let mut streak = 1;
    for w in value.windows(2) {
        streak = if w[0] == w[1] { streak + 1 } else { 1 };
        repeated = usize::max(repeated, streak);
    }
    // Words inside the value: an identifier ("daemon_password", "getMasterUserPassword") is
    // made of them, a key is not.
    let inner = words_of(value);
    let long_words: Vec<&String> = inner.iter().filter(|w| w.len() >= 3).collect();
    let covered: usize = long_words.iter().map(|w| w.len()).sum();
    out.push(format!("words:{}", count_bin(long_words.len())));
    out.push(format!("wordy:{}", tenths(covered, n)));
    let lowered = text_lower(value);
    for stem in KEY_STEMS {
        if lowered.contains(stem) {
            out.push(format!("valhas:{stem}"));
        }
    }
    if repeated >= 4 {
        out.push("repeat".to_string());
    }
    if is_hex(value) {
        let case = if upper > 0 { "U" } else { "l" };
        let exact = matches!(n, 6..=12 | 32 | 40 | 64);
        out.push(if exact {
            format!("hex{case}:{n}")
        } else {
            format!("hex{case}:{len}")
        });
    }
    if digit == n {
        out.push(format!("number:{len}"));
    }
    if is_uuid(value) {
        out.push("uuid".to_string());
    }
    if is_version(value) {
        out.push("version".to_string());
    }
    let text: String = value.iter().collect();
    if text.contains("://") {
        out.push("url".to_string());
    }
    if text.starts_with('/') || text.starts_with("./") || text.starts_with("~/") {
        out.push("path".to_string());
    }
    let at = text.find('@');
    if at.is_some_and(|i| i > 0 && text[i..].contains('.')) {
        out.push("email".to_string());
    }
    if text.starts_with('$') || text.starts_with('%') {
        out.push("variable".to_string());
    }
    if let Some(dot) = text.rfind('.') {
        let ext = &text[dot + 1..];
        if (1..=4).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_lowercase()) && dot > 0 {
            out.push("ext".to_string());
        }
    }
    for (mark, what) in [
        ('.', "dots"),
        ('-', "dashes"),
        ('_', "unders"),
        ('/', "slashes"),
    ] {
        let count = value.iter().filter(|&&c| c == mark).count();
        out.push(format!("{what}:{}", count_bin(count)));
    }
    if text.ends_with('=') {
        out.push("padded".to_string());
    }
    // A provider's prefix: letters and digits before a `_`, `-` or `.` within the first 8.
    if let Some(cut) = value
        .iter()
        .take(9)
        .position(|&c| c == '_' || c == '-' || c == '.')
    {
        if cut >= 2 && value[..cut].iter().all(|c| c.is_ascii_alphanumeric()) {
            let prefix: String = value[..=cut].iter().collect();
            out.push(format!("pfx:{prefix}"));
        }
    }
    if n >= 3 {
        let first: String = value[..3].iter().collect();
        out.push(format!("p3:{first}"));
    }
    // The name it is given and the words around it.
    let name_words = words_of(name);
    let assigned = !op.is_empty();
    out.push(format!("op:{}", if op.is_empty() { "none" } else { op }));
    for word in &name_words {
        out.push(format!("name:{word}"));
    }
    let joined_name: String = name_words.concat();
    let keyword = near_keyword(&joined_name, context);
    for stem in STEMS {
        let in_name = joined_name.contains(stem);
        // "id" and "pin" are too short to look for inside words ("hidden", "spinach").
        let in_context = context.iter().any(|w| {
            if stem.len() <= 3 {
                w == stem
            } else {
                w.contains(stem)
            }
        });
        if in_name {
            out.push(format!("namehas:{stem}"));
        }
        if in_context {
            out.push(format!("ctxhas:{stem}"));
        }
    }
    for word in context {
        out.push(format!("ctx:{word}"));
    }
    if let Some(last) = context.last() {
        out.push(format!("prev:{last}"));
    }
    if !next.is_empty() {
        out.push(format!("next:{next}"));
    }
    let kw = if keyword { "kw1" } else { "kw0" };
    out.push(format!("{kw}|cls:{classes}"));
    out.push(format!("{kw}|len:{len}"));
    out.push(format!("{kw}|ent:{}", ent));
    out.push(format!("{kw}|assigned:{}", u8::from(assigned)));
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether a feature may be shown in a reason: the name's and the line's stems, and the
/// value's shape; never one that holds the candidate's own characters (its prefix) or words of
/// the text other than the fixed stems.
pub fn feature_shown(feature: &str) -> bool {
    const SHOWN: &[&str] = &[
        "namehas:", "ctxhas:", "valhas:", "ent:", "len:", "cls:", "trans:", "digits:", "upper:",
        "hexl:", "hexU:", "kw1|",
    ];
    SHOWN.iter().any(|p| feature.starts_with(p))
}

/// Where a value's assignment is, looking left from `start` on its line: the operator (`=`,
/// `:`, `,`, `=>` ...; empty when none) and the name before it.
fn assignment_before(chars: &[char], start: usize) -> (String, usize, usize) {
    let line_start = chars[..start]
        .iter()
        .rposition(|&c| c == '\n')
        .map_or(0, |p| p + 1);
    let mut j = start;
    while j > line_start && " \t\"'`".contains(chars[j - 1]) {
        j -= 1;
    }
    let op_end = j;
    while j > line_start && "=:,>".contains(chars[j - 1]) && op_end - j < 3 {
        j -= 1;
    }
    if j == op_end {
        return (String::new(), start, start);
    }
    let op: String = chars[j..op_end].iter().collect();
    while j > line_start && " \t\"'`)]}".contains(chars[j - 1]) {
        j -= 1;
    }
    let name_end = j;
    while j > line_start && is_name_char(chars[j - 1]) && name_end - j < 40 {
        j -= 1;
    }
    (op, j, name_end)
}

/// The context words before `start` on its line (within CONTEXT_CHARS), the nearest last.
fn context_before(chars: &[char], start: usize) -> Vec<String> {
    let line_start = chars[..start]
        .iter()
        .rposition(|&c| c == '\n')
        .map_or(0, |p| p + 1);
    let from = line_start.max(start.saturating_sub(CONTEXT_CHARS));
    // Start at a word boundary: a word cut by the window is dropped.
    let mut from = from;
    while from > line_start && from < start && chars[from - 1].is_ascii_alphabetic() {
        from += 1;
    }
    let mut words = words_of(&chars[from..start]);
    if words.len() > CONTEXT_WORDS {
        words.drain(..words.len() - CONTEXT_WORDS);
    }
    words
}

fn next_after(chars: &[char], end: usize) -> String {
    let stop = chars.len().min(end + NEXT_CHARS);
    let line_end = chars[end..stop]
        .iter()
        .position(|&c| c == '\n')
        .map_or(stop, |p| end + p);
    // Only a whole word that lies entirely in the window.
    let words = words_of(&chars[end..line_end]);
    words.into_iter().next().unwrap_or_default()
}

/// Every candidate in `text`, with its features.
pub fn candidates(text: &str) -> Vec<Candidate> {
    candidates_where(text, false)
}

/// The candidates of `text`; with `keyword_only`, only those with a key word in their name or
/// before them (the others' features are never made: what `scan` reports needs one).
fn candidates_where(text: &str, keyword_only: bool) -> Vec<Candidate> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !is_token_char(chars[i]) {
            i += 1;
            continue;
        }
        let run_start = i;
        while i < chars.len() && is_token_char(chars[i]) {
            i += 1;
        }
        if let Some(found) = candidate_in(&chars, run_start, i, keyword_only) {
            out.push(found);
        }
    }
    out
}

fn candidate_in(
    chars: &[char],
    run_start: usize,
    run_end: usize,
    keyword_only: bool,
) -> Option<Candidate> {
    let run = &chars[run_start..run_end];
    let mut start = run_start;
    let mut name: (usize, usize) = (run_start, run_start);
    let mut op = String::new();
    // `name=value` inside one run: a name of identifier characters, then `=`, `:`, `:=`, `=>`.
    if let Some(at) = run.iter().position(|&c| c == '=' || c == ':') {
        let head = &run[..at];
        let first_ok = head
            .first()
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == '_');
        if first_ok && head.iter().all(|&c| is_name_char(c)) {
            let mut v = at;
            while v < run.len() && "=:>".contains(run[v]) && v - at < 3 {
                v += 1;
            }
            let after = &run[v..];
            let url = after.len() >= 2 && after[0] == '/' && after[1] == '/';
            if !url && v < run.len() {
                op = run[at..v].iter().collect();
                name = (run_start, run_start + at);
                start = run_start + v;
            }
        }
    }
    // A run that opens with the operator (`):IhqSb1Gg` after `Key(ANYSecret`).
    if op.is_empty() {
        let mut v = start;
        while v < run_end && "=:>".contains(chars[v]) && v - start < 3 {
            v += 1;
        }
        if v > start {
            op = chars[start..v].iter().collect();
            start = v;
            let mut j = run_start;
            while j > 0 && " \t\"'`)]}".contains(chars[j - 1]) && chars[j - 1] != '\n' {
                j -= 1;
            }
            let name_end = j;
            while j > 0 && is_name_char(chars[j - 1]) && name_end - j < 40 {
                j -= 1;
            }
            name = (j, name_end);
        }
    }
    // A run followed by an operator is a name, not a value ("client_secret": ...).
    let mut after = run_end;
    while after < chars.len() && " \t\"'`)]".contains(chars[after]) {
        after += 1;
    }
    let named = after < chars.len() && "=:".contains(chars[after]);
    if named || run.last().is_some_and(|&c| c == '=' || c == ':') && op.is_empty() {
        return None;
    }
    let mut end = run_end;
    while end > start && ".:?!,".contains(chars[end - 1]) {
        end -= 1;
    }
    let value = &chars[start..end];
    let n = value.len();
    if !(MIN_LEN..=MAX_LEN).contains(&n) {
        return None;
    }
    if op.is_empty() {
        let (before_op, name_start, name_end) = assignment_before(chars, start);
        op = before_op;
        name = (name_start, name_end);
    }
    let word_like = value
        .iter()
        .enumerate()
        .all(|(k, &c)| c.is_alphabetic() && (k == 0 || !c.is_uppercase()) || c == '-' || c == '\'');
    if word_like && op.is_empty() {
        return None;
    }
    let context = context_before(chars, if name.1 > name.0 { name.0 } else { start });
    if keyword_only && !near_keyword(&words_of(&chars[name.0..name.1]).concat(), &context) {
        return None;
    }
    let next = next_after(chars, end);
    let features = features_of(value, &chars[name.0..name.1], &op, &context, &next);
    Some(Candidate {
        start,
        end,
        features,
    })
}

/// A trained linear model over the candidates' hashed features.
#[derive(Debug)]
pub struct CredentialModel {
    bits: u32,
    bias: f32,
    scale: f32,
    weights: Vec<i16>,
    placeholders: Option<AnyOf>,
}

/// A candidate the model scored: its span (characters), probability and the shown features
/// that raised it most (name, weight).
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub start: usize,
    pub end: usize,
    pub probability: f64,
    pub strongest: Vec<(String, f32)>,
}

impl CredentialModel {
    /// Read a weights file (format in the module's comment); values matching a placeholder
    /// pattern (the credential rules' list) are never scored.
    pub fn from_bytes(data: &[u8], placeholders: &[String]) -> Result<Self, Error> {
        let bad = |what: &str| Error::Invalid(format!("credential model: {what}"));
        if data.len() < HEADER || &data[..8] != MAGIC {
            return Err(bad("not a SHLXCRD1 weights file"));
        }
        let word = |at: usize| -> [u8; 4] { data[at..at + 4].try_into().expect("4 bytes") };
        let bits = u32::from_le_bytes(word(8));
        if !(8..=20).contains(&bits) {
            return Err(bad("bucket bits outside 8..=20"));
        }
        let bias = f32::from_le_bytes(word(12));
        let scale = f32::from_le_bytes(word(16));
        if !bias.is_finite() || !scale.is_finite() {
            return Err(bad("bias or scale is not finite"));
        }
        let body = &data[HEADER..];
        if body.len() != (1usize << bits) * 2 {
            return Err(bad("weights length does not match its bucket bits"));
        }
        let weights = body
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect();
        let placeholders =
            AnyOf::new(placeholders).map_err(|e| bad(&format!("bad placeholder pattern: {e}")))?;
        Ok(Self {
            bits,
            bias,
            scale,
            weights,
            placeholders,
        })
    }

    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Drop the placeholders' compiled regex (core's rest); the next scan compiles it again.
    pub fn release_compiled(&self) {
        if let Some(set) = &self.placeholders {
            set.release();
        }
    }

    fn weight(&self, feature: &str) -> f32 {
        f32::from(self.weights[bucket(feature, self.bits) as usize]) * self.scale
    }

    /// The probability of one candidate's features.
    pub fn probability(&self, features: &[String]) -> f64 {
        let mut buckets: Vec<u32> = features.iter().map(|f| bucket(f, self.bits)).collect();
        buckets.sort_unstable();
        buckets.dedup();
        let total: f64 = buckets
            .iter()
            .map(|&b| f64::from(f32::from(self.weights[b as usize]) * self.scale))
            .sum();
        logistic(f64::from(self.bias) + total)
    }

    /// Every candidate of `text` scoring at least `threshold`, with its `top` strongest shown
    /// features.
    pub fn scan(&self, text: &str, threshold: f64, top: usize) -> Vec<Finding> {
        let chars: Vec<char> = text.chars().collect();
        let mut out = Vec::new();
        // With no key word in its name or before it, a candidate is left to the rules: a
        // digest, a trace id or a release name has a key's shape and no key's words.
        for candidate in candidates_where(text, true) {
            let probability = self.probability(&candidate.features);
            if probability < threshold {
                continue;
            }
            if let Some(set) = &self.placeholders {
                let value: String = chars[candidate.start..candidate.end].iter().collect();
                if set.is_match(&value) {
                    continue;
                }
            }
            let mut shown: Vec<(String, f32)> = candidate
                .features
                .iter()
                .filter(|f| feature_shown(f))
                .map(|f| (f.clone(), self.weight(f)))
                .filter(|(_, w)| *w > 0.0)
                .collect();
            shown.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            shown.truncate(top);
            out.push(Finding {
                start: candidate.start,
                end: candidate.end,
                probability,
                strongest: shown,
            });
        }
        out
    }
}

fn logistic(margin: f64) -> f64 {
    1.0 / (1.0 + (-margin).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        candidates(text)
            .iter()
            .map(|c| chars[c.start..c.end].iter().collect())
            .collect()
    }

    fn features(text: &str) -> Vec<String> {
        candidates(text).remove(0).features
    }

    #[test]
    fn a_value_is_cut_from_its_name_and_the_name_is_read() {
        assert_eq!(spans("DB_PASSWORD=kX92mLq7"), vec!["kX92mLq7"]);
        let found = features("DB_PASSWORD=kX92mLq7");
        assert!(found.contains(&"namehas:pass".to_string()));
        assert!(found.contains(&"op:=".to_string()));
        assert!(found.contains(&"kw1|assigned:1".to_string()));
        assert_eq!(
            spans(r#""client_secret": "p8e-ibndcvsmAp9Zg""#),
            vec!["p8e-ibndcvsmAp9Zg"]
        );
        let quoted = features(r#""client_secret": "p8e-ibndcvsmAp9Zg""#);
        assert!(quoted.contains(&"name:secret".to_string()));
        assert!(quoted.contains(&"op::".to_string()));
        assert_eq!(spans("Key(ANYSecret):IhqSb1Gg"), vec!["IhqSb1Gg"]);
        assert!(features("Key(ANYSecret):IhqSb1Gg").contains(&"namehas:secret".to_string()));
    }

    #[test]
    fn plain_words_and_short_tokens_are_no_candidates() {
        assert!(spans("the owner likes green tea in the morning.").is_empty());
        assert!(spans("pin 4821, ok").is_empty());
        assert_eq!(spans("commit 3f2a9c1 fixed the parser."), vec!["3f2a9c1"]);
        // A word given to a name is one: "password: bluefish".
        assert_eq!(spans("password: bluefish"), vec!["bluefish"]);
        // A URL keeps its scheme.
        assert_eq!(
            spans("see https://example.org/a?b=c"),
            vec!["https://example.org/a?b=c"]
        );
    }

    #[test]
    fn shapes_are_features() {
        let hash = features("the sha is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b");
        assert!(hash.contains(&"hexl:40".to_string()));
        assert!(hash.contains(&"ctxhas:sha".to_string()));
        assert!(features("id 123e4567-e89b-12d3-a456-426614174000").contains(&"uuid".to_string()));
        assert!(features("version v1.2.3-rc1").contains(&"version".to_string()));
        let key = features("token ghp_gaKjIg8xNbe3nNyjOq9wMxEhh2FDEEtfjgVv");
        assert!(key.contains(&"pfx:ghp_".to_string()));
        assert!(key.contains(&"cls:LUD".to_string()) || key.contains(&"cls:LUDS".to_string()));
        assert!(key.contains(&"ctxhas:token".to_string()));
    }

    #[test]
    fn offsets_are_characters() {
        let text = "clé: «x» token=Ab3dEf9hIj";
        let found = candidates(text);
        let chars: Vec<char> = text.chars().collect();
        let last = found.last().unwrap();
        assert_eq!(
            chars[last.start..last.end].iter().collect::<String>(),
            "Ab3dEf9hIj"
        );
    }

    #[test]
    fn shown_features_never_hold_the_value() {
        for feature in features("api_key = Zq8Lm2Tx7Vb4") {
            if feature_shown(&feature) {
                assert!(!feature.contains("Zq8"), "{feature}");
            }
        }
    }

    fn model_bytes(bits: u32, bias: f32, scale: f32, set: &[(&str, i16)]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(bits.to_le_bytes());
        out.extend(bias.to_le_bytes());
        out.extend(scale.to_le_bytes());
        let mut weights = vec![0i16; 1 << bits];
        for &(feature, q) in set {
            weights[bucket(feature, bits) as usize] = q;
        }
        for q in weights {
            out.extend(q.to_le_bytes());
        }
        out
    }

    #[test]
    fn the_score_adds_the_weights_of_distinct_buckets() {
        let data = model_bytes(14, -2.0, 0.01, &[("namehas:pass", 500)]);
        let model = CredentialModel::from_bytes(&data, &[]).unwrap();
        let found = model.scan("password = kX92mLq7", 0.5, 3);
        assert_eq!(found.len(), 1);
        assert!((found[0].probability - logistic(3.0)).abs() < 1e-6);
        assert_eq!(found[0].strongest, vec![("namehas:pass".to_string(), 5.0)]);
        assert!(model.scan("commit 3f2a9c1 fixed it", 0.5, 3).is_empty());
        let placeholders = vec!["(?i)changeme".to_string()];
        let strict = CredentialModel::from_bytes(&data, &placeholders).unwrap();
        assert!(strict.scan("password = changeme99", 0.5, 3).is_empty());
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(CredentialModel::from_bytes(b"nope", &[]).is_err());
        let mut data = model_bytes(10, 0.0, 1.0, &[]);
        data.pop();
        assert!(CredentialModel::from_bytes(&data, &[]).is_err());
        let good = model_bytes(10, 0.0, 1.0, &[]);
        assert!(CredentialModel::from_bytes(&good, &["(".to_string()]).is_err());
    }
}
