//! Atomic file replacement: a reader (or a crash) sees the old content or the new, never a mix.
//!
//! The idiom: create a temp file in the same directory (rename is only atomic within one
//! filesystem), write, set the mode explicitly (umask must not decide it), fsync the file,
//! rename over the target, fsync the directory so the rename itself is durable.
//!
//! A caller that makes a batch of writes durable at once (core applying a turn:
//! shelldon.core.storage.durability) passes `durable = false` and fsyncs each file and directory
//! once at the end. `sync_filesystem` (syncfs) is left for the scripts that measure the card's
//! writes: it writes back every dirty page of the file system, not only the batch's.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::io::AsRawFd;
// std opens every file O_CLOEXEC, so a forked worker never inherits these descriptors.
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// Marker in temp-file names, so a sweep after a crash can recognise (only) our leftovers.
pub const TEMP_MARKER: &str = ".tmp-shelldon-";

static COUNTER: AtomicU64 = AtomicU64::new(0);

fn split_target(path: &Path) -> Result<(PathBuf, String)> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| Error::Invalid(format!("not a file path: {}", path.display())))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name.to_owned()))
}

/// Open the temp file with O_EXCL; a name collision (another writer, a leftover) tries the next name.
fn create_temp(dir: &Path, name: &str, mode: u32) -> Result<(PathBuf, File)> {
    for _ in 0..64 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{name}{TEMP_MARKER}{}-{n}", std::process::id()));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&temp)
        {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(io::Error::from_raw_os_error(17).into()) // EEXIST: 64 collisions in a row
}

/// fsync a directory so a rename, a create or an unlink inside it survives power loss.
/// ENOTDIR for anything but a directory: a caller naming a file means a bug, not a no-op.
pub fn sync_dir(dir: &Path) -> Result<()> {
    let handle = File::open(dir)?;
    if !handle.metadata()?.is_dir() {
        return Err(io::Error::from_raw_os_error(20).into()); // ENOTDIR
    }
    handle.sync_all()?;
    Ok(())
}

/// Replace `path` with `data` atomically, leaving the file at `mode`; with `durable`, also
/// durably (the file and then its directory fsynced). Any failure before the rename leaves the
/// old file untouched and removes the temp file. The one failure after it, the directory fsync,
/// is still an error: the new content is in place but its durability across power loss is not
/// known.
pub fn atomic_write(path: &Path, data: &[u8], mode: u32, durable: bool) -> Result<()> {
    if mode > 0o7777 {
        return Err(Error::Invalid(format!(
            "mode {mode:#o} is not a permission mode"
        )));
    }
    let (dir, name) = split_target(path)?;
    let (temp, mut file) = create_temp(&dir, &name, mode)?;
    let written = (|| -> Result<()> {
        file.write_all(data)?;
        // Explicit: the create mode above was filtered by the umask.
        file.set_permissions(fs::Permissions::from_mode(mode))?;
        if durable {
            file.sync_all()?;
        }
        drop(file);
        fs::rename(&temp, path)?;
        Ok(())
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(e);
    }
    if durable {
        sync_dir(&dir)?;
    }
    Ok(())
}

/// syncfs(2) on the filesystem holding `path`: every write made so far to any file on it is
/// durable when this returns (one call for a batch of non-durable writes).
pub fn sync_filesystem(path: &Path) -> Result<()> {
    let handle = File::open(path)?;
    // SAFETY: syncfs takes an fd this File owns for the whole call, and no memory.
    if unsafe { libc::syncfs(handle.as_raw_fd()) } != 0 {
        return Err(io::Error::last_os_error().into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("shelldon-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn writes_new_and_replaces_existing() {
        let dir = scratch("replace");
        let target = dir.join("about.md");
        atomic_write(&target, b"first", 0o644, true).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"first");
        atomic_write(&target, b"second", 0o600, true).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"second");
        assert_eq!(fs::metadata(&target).unwrap().mode() & 0o7777, 0o600);
        let leftovers: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file left behind");
    }

    #[test]
    fn missing_directory_is_an_io_error_with_errno() {
        let dir = scratch("missing");
        let err = atomic_write(&dir.join("nope/x.md"), b"x", 0o644, true).unwrap_err();
        match err {
            Error::Io(e) => assert_eq!(e.raw_os_error(), Some(2)),
            Error::Invalid(m) => panic!("expected Io, got {m}"),
        }
    }

    #[test]
    fn rename_failure_keeps_old_file_and_removes_temp() {
        let dir = scratch("dirtarget");
        let target = dir.join("entry.md");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("keep"), b"old").unwrap();
        assert!(atomic_write(&target, b"new", 0o644, true).is_err());
        assert_eq!(fs::read(target.join("keep")).unwrap(), b"old");
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "temp removed: {names:?}");
    }

    #[test]
    fn sync_dir_takes_directories_only() {
        let dir = scratch("syncdir");
        sync_dir(&dir).unwrap();
        let file = dir.join("plain.md");
        fs::write(&file, b"x").unwrap();
        for (path, errno) in [(file, 20), (dir.join("missing"), 2)] {
            match sync_dir(&path).unwrap_err() {
                Error::Io(e) => assert_eq!(e.raw_os_error(), Some(errno), "{}", path.display()),
                Error::Invalid(m) => panic!("expected Io, got {m}"),
            }
        }
    }

    #[test]
    fn a_batched_write_is_in_place_and_the_filesystem_sync_succeeds() {
        let dir = scratch("batched");
        let target = dir.join("entry.md");
        atomic_write(&target, b"batched", 0o640, false).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"batched");
        assert_eq!(fs::metadata(&target).unwrap().mode() & 0o7777, 0o640);
        sync_filesystem(&dir).unwrap();
        let err = sync_filesystem(&dir.join("absent")).unwrap_err();
        assert!(matches!(err, Error::Io(ref e) if e.raw_os_error() == Some(2)));
    }

    #[test]
    fn rejects_bad_mode_and_pathless_target() {
        assert!(matches!(
            atomic_write(Path::new("/tmp/x"), b"", 0o10000, true),
            Err(Error::Invalid(_))
        ));
        assert!(matches!(
            atomic_write(Path::new("/"), b"", 0o644, true),
            Err(Error::Invalid(_))
        ));
    }
}
