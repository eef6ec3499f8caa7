//! Durable append for append-only record files (episodes.md, the audit log): one write, one fsync.
//!
//! A record ends with a newline (anything else is refused), so a file whose last byte is not a
//! newline ends in a torn record. Torn records do happen: the kernel ends a large write early when
//! a fatal signal arrives (it checks between pages; 64 KB records tore 3 times in 200 SIGKILLs,
//! 1 MB records 11 times in 100), and a write that meets ENOSPC or EFBIG partway leaves a prefix.
//! So, under an exclusive flock of the file (appenders, and core's start-up repair, serialise on it):
//! - a write that fails partway is cut back to the size before it, then the error is returned;
//! - a file that already ends torn (a killed writer cannot cut its own) gets a newline first, in
//!   the same write: the new record starts a line of its own and is never glued onto the fragment,
//!   which readers skip and core cuts at its next start (shelldon.core.recovery).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{FileExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::io::AsRawFd;
use std::path::Path;

use crate::atomic::sync_dir;
use crate::error::{Error, Result};

extern "C" {
    // libc's flock(2); std links libc, and std's File::lock is newer than the crate's MSRV.
    fn flock(fd: i32, operation: i32) -> i32;
}
const LOCK_EX: i32 = 2;

fn lock_exclusive(file: &File) -> Result<()> {
    loop {
        // SAFETY: flock takes an fd this File owns for the whole call, and no memory.
        if unsafe { flock(file.as_raw_fd(), LOCK_EX) } == 0 {
            return Ok(()); // released when the file is closed
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err.into());
        }
    }
}

fn open_append(path: &Path, mode: u32) -> Result<(File, bool)> {
    let mut options = OpenOptions::new();
    options.read(true).append(true); // read: the last byte; std adds O_CLOEXEC
    match options.open(path) {
        Ok(f) => return Ok((f, false)),
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e.into()),
        Err(_) => {}
    }
    match options.clone().create_new(true).mode(mode).open(path) {
        Ok(f) => {
            f.set_permissions(fs::Permissions::from_mode(mode))?;
            Ok((f, true))
        }
        // Someone created it between our two opens: append to theirs.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok((options.open(path)?, false)),
        Err(e) => Err(e.into()),
    }
}

/// True when the file's last byte is not a newline: it ends in a torn record.
fn ends_torn(file: &File, size: u64) -> Result<bool> {
    if size == 0 {
        return Ok(false);
    }
    let mut last = [0u8; 1];
    file.read_exact_at(&mut last, size - 1)?;
    Ok(last[0] != b'\n')
}

/// Append the record `data` (non-empty, ending with a newline) to `path`, created at `mode` if
/// absent, and (with `durable`) fsync before returning. Returns the file's size after the append.
pub fn durable_append(path: &Path, data: &[u8], mode: u32, durable: bool) -> Result<u64> {
    if mode > 0o7777 {
        return Err(Error::Invalid(format!(
            "mode {mode:#o} is not a permission mode"
        )));
    }
    if data.last() != Some(&b'\n') {
        return Err(Error::Invalid(
            "a record must be non-empty and end with a newline".into(),
        ));
    }
    let (mut file, created) = open_append(path, mode)?;
    lock_exclusive(&file)?;
    let size = file.metadata()?.len();
    let separated;
    let record = if ends_torn(&file, size)? {
        separated = [b"\n", data].concat();
        &separated[..]
    } else {
        data
    };
    if let Err(e) = file.write_all(record) {
        // A prefix may have landed (ENOSPC, EFBIG): cut it, so no torn record stays behind.
        let _ = file.set_len(size);
        return Err(e.into());
    }
    if !durable {
        return Ok(file.metadata()?.len());
    }
    file.sync_data()?;
    if created {
        // A new file's directory entry is only durable once the directory is synced.
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        sync_dir(dir)?;
    }
    Ok(file.metadata()?.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("shelldon-append-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn creates_with_mode_then_appends() {
        let path = scratch("create").join("episodes.md");
        assert_eq!(durable_append(&path, b"one\n", 0o640, true).unwrap(), 4);
        assert_eq!(durable_append(&path, b"two\n", 0o600, true).unwrap(), 8);
        assert_eq!(fs::read(&path).unwrap(), b"one\ntwo\n");
        // The mode is set on create only; later calls do not change it.
        assert_eq!(fs::metadata(&path).unwrap().mode() & 0o7777, 0o640);
    }

    #[test]
    fn a_torn_tail_gets_its_own_line_and_the_record_stays_whole() {
        let path = scratch("torn").join("history.jsonl");
        fs::write(&path, b"{\"a\": 1}\n{\"b\": ").unwrap();
        assert_eq!(
            durable_append(&path, b"{\"c\": 3}\n", 0o644, true).unwrap(),
            25
        );
        assert_eq!(
            fs::read(&path).unwrap(),
            b"{\"a\": 1}\n{\"b\": \n{\"c\": 3}\n"
        );
    }

    #[test]
    fn a_record_without_its_newline_is_refused_and_nothing_is_written() {
        let path = scratch("refused").join("episodes.md");
        for data in [&b""[..], b"no newline"] {
            assert!(matches!(
                durable_append(&path, data, 0o644, true),
                Err(Error::Invalid(_))
            ));
        }
        assert!(!path.exists());
    }

    #[test]
    fn missing_directory_keeps_errno() {
        let err =
            durable_append(Path::new("/nonexistent-shelldon/x"), b"x\n", 0o644, true).unwrap_err();
        assert!(matches!(err, Error::Io(ref e) if e.raw_os_error() == Some(2)));
    }
}
