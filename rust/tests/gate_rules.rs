//! Every example in the gate's rules files, checked with Rust `regex` through the real Scanner
//! (tests/test_gate_rules.py checks the same examples with Python `re`).

use std::path::PathBuf;

use shelldon_native::scanner::{RuleSpec, Scanner};

struct Example {
    rule: String,
    text: String,
    positive: bool,
}

fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("python/shelldon/core/gate/gate_rules")
}

fn strings(value: Option<&toml::Value>) -> Vec<String> {
    value
        .and_then(|v| v.as_array())
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// (rules, placeholders, examples) from one rules file.
fn load(name: &str) -> (Vec<RuleSpec>, Vec<String>, Vec<Example>) {
    let path = rules_dir().join(format!("{name}.toml"));
    let text = std::fs::read_to_string(&path).expect("rules file is readable");
    let doc: toml::Table = text.parse().expect("rules file is valid TOML");
    let placeholders = strings(doc.get("placeholders"));
    let mut specs = Vec::new();
    let mut examples = Vec::new();
    for rule in doc
        .get("rule")
        .and_then(|r| r.as_array())
        .expect("[[rule]] entries")
    {
        let id = rule["id"].as_str().expect("id").to_string();
        specs.push(RuleSpec {
            id: id.clone(),
            pattern: rule["pattern"].as_str().expect("pattern").to_string(),
            prefilter: strings(rule.get("prefilter")),
            min_entropy: rule
                .get("entropy")
                .and_then(|e| e.as_float().or_else(|| e.as_integer().map(|i| i as f64)))
                .unwrap_or(0.0),
            skip_placeholders: rule
                .get("placeholders")
                .and_then(|p| p.as_bool())
                .unwrap_or(true),
        });
        for (key, positive) in [("positives", true), ("negatives", false)] {
            for text in strings(rule.get(key)) {
                examples.push(Example {
                    rule: id.clone(),
                    text,
                    positive,
                });
            }
        }
        assert!(
            !strings(rule.get("positives")).is_empty(),
            "rule {id} has no positive example"
        );
        assert!(
            !strings(rule.get("negatives")).is_empty(),
            "rule {id} has no negative example"
        );
    }
    (specs, placeholders, examples)
}

/// Each example against a scanner holding only its own rule, so "negative" means "not this rule".
fn check(name: &str, prepare: fn(&str) -> String) {
    let (specs, placeholders, examples) = load(name);
    let mut failures = Vec::new();
    for spec in &specs {
        let scanner = Scanner::new(std::slice::from_ref(spec), &placeholders).expect("compiles");
        for ex in examples.iter().filter(|e| e.rule == spec.id) {
            let found = !scanner.scan(&prepare(&ex.text)).is_empty();
            if found != ex.positive {
                failures.push(format!(
                    "{} {}: {:?}",
                    ex.rule,
                    if ex.positive {
                        "missed"
                    } else {
                        "wrongly matched"
                    },
                    ex.text
                ));
            }
        }
    }
    // The whole set compiles together too (one RegexSet, one prefilter).
    Scanner::new(&specs, &placeholders).expect("the full rule set compiles");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn secret_rule_examples() {
    check("secrets", |t| t.to_string());
}

#[test]
fn instruction_rule_examples() {
    // The product normalises (NFKC, case fold, ...) in Python first; the examples are ASCII, so
    // lower-casing and collapsing spaces is that normalisation.
    check("instructions", |t| {
        let lower = t.to_lowercase();
        let mut out = String::with_capacity(lower.len());
        let mut last_space = false;
        for ch in lower.chars() {
            let space = ch == ' ' || ch == '\t';
            if !(space && last_space) {
                out.push(if space { ' ' } else { ch });
            }
            last_space = space;
        }
        out
    });
}
