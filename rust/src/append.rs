//! Durable append for append-only files (episodes.md, the audit log): one write, one fsync.
//!
//! O_APPEND makes each call land at the end even with another appender; the whole record goes
//! out in one `write_all` so a killed process leaves whole records (a torn tail needs a short
//! write from the kernel, which regular files do not produce below the filesystem limits).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

use crate::atomic::sync_dir;
use crate::error::{Error, Result};

fn open_append(path: &Path, mode: u32) -> Result<(File, bool)> {
    let mut options = OpenOptions::new();
    options.append(true); // std adds O_CLOEXEC
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

/// Append `data` to `path` (created at `mode` if absent) and fsync before returning.
/// Returns the file's size after the append.
pub fn durable_append(path: &Path, data: &[u8], mode: u32) -> Result<u64> {
    if mode > 0o7777 {
        return Err(Error::Invalid(format!(
            "mode {mode:#o} is not a permission mode"
        )));
    }
    let (mut file, created) = open_append(path, mode)?;
    file.write_all(data)?;
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

    #[test]
    fn creates_with_mode_then_appends() {
        let dir = std::env::temp_dir().join(format!("shelldon-append-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("episodes.md");
        assert_eq!(durable_append(&path, b"one\n", 0o640).unwrap(), 4);
        assert_eq!(durable_append(&path, b"two\n", 0o600).unwrap(), 8);
        assert_eq!(fs::read(&path).unwrap(), b"one\ntwo\n");
        // The mode is set on create only; later calls do not change it.
        assert_eq!(fs::metadata(&path).unwrap().mode() & 0o7777, 0o640);
    }

    #[test]
    fn missing_directory_keeps_errno() {
        let err = durable_append(Path::new("/nonexistent-shelldon/x"), b"x", 0o644).unwrap_err();
        assert!(matches!(err, Error::Io(ref e) if e.raw_os_error() == Some(2)));
    }
}
