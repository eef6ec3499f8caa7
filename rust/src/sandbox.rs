//! The worker's seccomp filter: a deny-list of the calls a turn never makes.
//!
//! Default allow, and each listed call answers an errno (EPERM in the product) rather than killing
//! the worker, so a refused call is a Python `PermissionError` the turn can report. Two things do
//! kill: a system call from another ABI than the one the filter was built for (on x86_64 the i386
//! `int 0x80` entry and the x32 numbers, which a deny-list keyed on x86_64 numbers would let through)
//! — no legitimate worker code makes one.
//!
//! Written as a few lines of classic BPF rather than with a filter-building crate: the program is a
//! linear list of `nr ==` tests plus two argument checks, the numbers for both supported ABIs are in
//! the table below (checked against `libc::SYS_*` for the build's own arch in the tests), and the
//! x32 check, which the crates leave out, is one instruction. No dependency beyond `libc`, which
//! pyo3 already brings.
//!
//! The program is built once in the fork-server (`worker_filter`) and installed in each child after
//! its privilege drop (`install_filter`), with `PR_SET_NO_NEW_PRIVS` already set. It is installed
//! with `prctl(PR_SET_SECCOMP)` rather than `seccomp(2)`: the card's systemd unit allows `prctl`
//! (in `@process`) whatever its own `SystemCallFilter` says.

use crate::error::{Error, Result};

/// A supported ABI: the filter refuses any other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    X86_64,
    Aarch64,
}

// <linux/audit.h>: EM_X86_64 / EM_AARCH64 with __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE.
const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
const AUDIT_ARCH_AARCH64: u32 = 0xC000_00B7;
/// x86_64's x32 ABI shares AUDIT_ARCH_X86_64 and sets this bit in the call number.
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

impl Arch {
    /// The ABI this module was compiled for, or `Invalid` on any other.
    pub fn native() -> Result<Arch> {
        match std::env::consts::ARCH {
            "x86_64" => Ok(Arch::X86_64),
            "aarch64" => Ok(Arch::Aarch64),
            other => Err(Error::Invalid(format!(
                "no seccomp filter for this architecture ({other}): only x86_64 and aarch64"
            ))),
        }
    }

    pub fn audit_arch(self) -> u32 {
        match self {
            Arch::X86_64 => AUDIT_ARCH_X86_64,
            Arch::Aarch64 => AUDIT_ARCH_AARCH64,
        }
    }
}

/// What the filter does with one listed call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Always refused with the filter's errno.
    Refuse,
    /// Refused unless the first argument (an address family) is AF_UNIX.
    UnlessUnix,
    /// Refused when the flags in the first argument ask for a new namespace.
    NewNamespace,
    /// Answers ENOSYS (not the filter's errno), so the C library falls back to a call the filter
    /// can inspect: `clone3` passes its flags in memory, out of a filter's reach; glibc then uses
    /// `clone`.
    Unsupported,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Refuse => "refuse",
            Rule::UnlessUnix => "unless-unix",
            Rule::NewNamespace => "new-namespace",
            Rule::Unsupported => "unsupported",
        }
    }
}

/// One listed call: its name, its number on each ABI (`None`: the ABI has no such call).
#[derive(Clone, Copy, Debug)]
pub struct Listed {
    pub name: &'static str,
    pub x86_64: Option<u32>,
    pub aarch64: Option<u32>,
    pub rule: Rule,
}

const fn both(name: &'static str, x86_64: u32, aarch64: u32, rule: Rule) -> Listed {
    Listed {
        name,
        x86_64: Some(x86_64),
        aarch64: Some(aarch64),
        rule,
    }
}

/// Every listed call. Numbers from arch/x86/entry/syscalls/syscall_64.tbl and
/// include/uapi/asm-generic/unistd.h (aarch64); since 424 the two share one numbering. Why each is
/// here: docs/processes.md, "What a worker may not do".
pub const LISTED: &[Listed] = &[
    // Network: the worker reaches only the broker, over AF_UNIX.
    both("socket", 41, 198, Rule::UnlessUnix),
    both("socketpair", 53, 199, Rule::UnlessUnix),
    // io_uring runs operations on kernel threads that no seccomp filter sees.
    both("io_uring_setup", 425, 425, Rule::Refuse),
    both("io_uring_enter", 426, 426, Rule::Refuse),
    both("io_uring_register", 427, 427, Rule::Refuse),
    // Reaching into other processes.
    both("ptrace", 101, 117, Rule::Refuse),
    both("process_vm_readv", 310, 270, Rule::Refuse),
    both("process_vm_writev", 311, 271, Rule::Refuse),
    both("process_madvise", 440, 440, Rule::Refuse),
    both("pidfd_getfd", 438, 438, Rule::Refuse),
    both("kcmp", 312, 272, Rule::Refuse),
    // The file-system view: mounts, old and new API, and changing root.
    both("mount", 165, 40, Rule::Refuse),
    both("umount2", 166, 39, Rule::Refuse),
    both("pivot_root", 155, 41, Rule::Refuse),
    both("chroot", 161, 51, Rule::Refuse),
    both("open_tree", 428, 428, Rule::Refuse),
    both("move_mount", 429, 429, Rule::Refuse),
    both("fsopen", 430, 430, Rule::Refuse),
    both("fsconfig", 431, 431, Rule::Refuse),
    both("fsmount", 432, 432, Rule::Refuse),
    both("fspick", 433, 433, Rule::Refuse),
    both("mount_setattr", 442, 442, Rule::Refuse),
    both("open_by_handle_at", 304, 265, Rule::Refuse),
    both("fanotify_init", 300, 262, Rule::Refuse),
    // Namespaces: a new user namespace hands back every capability inside it.
    both("unshare", 272, 97, Rule::Refuse),
    both("setns", 308, 268, Rule::Refuse),
    both("clone", 56, 220, Rule::NewNamespace),
    both("clone3", 435, 435, Rule::Unsupported),
    // Kernel code and kernel-side programs.
    both("init_module", 175, 105, Rule::Refuse),
    both("finit_module", 313, 273, Rule::Refuse),
    both("delete_module", 176, 106, Rule::Refuse),
    both("kexec_load", 246, 104, Rule::Refuse),
    both("kexec_file_load", 320, 294, Rule::Refuse),
    both("bpf", 321, 280, Rule::Refuse),
    both("perf_event_open", 298, 241, Rule::Refuse),
    both("userfaultfd", 323, 282, Rule::Refuse),
    both("syslog", 103, 116, Rule::Refuse),
    // The kernel keyring.
    both("keyctl", 250, 219, Rule::Refuse),
    both("add_key", 248, 217, Rule::Refuse),
    both("request_key", 249, 218, Rule::Refuse),
    // Running another program, or this one under another personality.
    both("execve", 59, 221, Rule::Refuse),
    both("execveat", 322, 281, Rule::Refuse),
    both("personality", 135, 92, Rule::Refuse),
    // x86 port I/O.
    Listed {
        name: "iopl",
        x86_64: Some(172),
        aarch64: None,
        rule: Rule::Refuse,
    },
    Listed {
        name: "ioperm",
        x86_64: Some(173),
        aarch64: None,
        rule: Rule::Refuse,
    },
];

impl Listed {
    pub fn number(&self, arch: Arch) -> Option<u32> {
        match arch {
            Arch::X86_64 => self.x86_64,
            Arch::Aarch64 => self.aarch64,
        }
    }
}

/// The calls listed for `arch`, as (name, number, rule), in the filter's order.
pub fn listed_for(arch: Arch) -> Vec<(&'static str, u32, Rule)> {
    LISTED
        .iter()
        .filter_map(|c| c.number(arch).map(|nr| (c.name, nr, c.rule)))
        .collect()
}

// Classic BPF, as <linux/filter.h> and <linux/seccomp.h> spell it.
const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const JSET_K: u16 = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RET_K: u16 = 0x06; // BPF_RET | BPF_K
pub const RET_ALLOW: u32 = 0x7fff_0000; // SECCOMP_RET_ALLOW
pub const RET_KILL_PROCESS: u32 = 0x8000_0000; // SECCOMP_RET_KILL_PROCESS
pub const RET_ERRNO: u32 = 0x0005_0000; // SECCOMP_RET_ERRNO | errno
                                        // struct seccomp_data { int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]; }
const OFFSET_NR: u32 = 0;
const OFFSET_ARCH: u32 = 4;
const OFFSET_ARG0_LOW: u32 = 16; // both ABIs are little-endian; the arch check pins that
const AF_UNIX: u32 = 1;
/// CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID |
/// CLONE_NEWNET (CLONE_NEWTIME exists only for clone3, which answers ENOSYS).
pub const CLONE_NEW_ANY: u32 =
    0x0002_0000 | 0x0200_0000 | 0x0400_0000 | 0x0800_0000 | 0x1000_0000 | 0x2000_0000 | 0x4000_0000;
const ENOSYS: u32 = 38;
const ERRNO_MAX: u32 = 4095;

/// One instruction, laid out as the kernel's `struct sock_filter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insn {
    pub code: u16,
    pub jt: u8,
    pub jf: u8,
    pub k: u32,
}

const fn stmt(code: u16, k: u32) -> Insn {
    Insn {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

const fn jump(code: u16, k: u32, jt: u8, jf: u8) -> Insn {
    Insn { code, jt, jf, k }
}

/// The worker's filter for `arch`: listed calls answer `errno`, all else is allowed.
pub fn build(arch: Arch, errno: u32) -> Result<Vec<Insn>> {
    if errno == 0 || errno > ERRNO_MAX {
        return Err(Error::Invalid(format!(
            "a refusing errno must be 1..={ERRNO_MAX}, not {errno}"
        )));
    }
    let refuse = RET_ERRNO | errno;
    let mut prog = vec![
        stmt(LD_W_ABS, OFFSET_ARCH),
        jump(JEQ_K, arch.audit_arch(), 1, 0),
        stmt(RET_K, RET_KILL_PROCESS),
        stmt(LD_W_ABS, OFFSET_NR),
    ];
    if arch == Arch::X86_64 {
        prog.push(jump(JGE_K, X32_SYSCALL_BIT, 0, 1));
        prog.push(stmt(RET_K, RET_KILL_PROCESS));
    }
    // Each block starts with A = nr; a block either returns or falls through to the next.
    for (_, nr, rule) in listed_for(arch) {
        match rule {
            Rule::Refuse => {
                prog.push(jump(JEQ_K, nr, 0, 1));
                prog.push(stmt(RET_K, refuse));
            }
            Rule::Unsupported => {
                prog.push(jump(JEQ_K, nr, 0, 1));
                prog.push(stmt(RET_K, RET_ERRNO | ENOSYS));
            }
            Rule::UnlessUnix => {
                prog.push(jump(JEQ_K, nr, 0, 4));
                prog.push(stmt(LD_W_ABS, OFFSET_ARG0_LOW));
                prog.push(jump(JEQ_K, AF_UNIX, 0, 1));
                prog.push(stmt(RET_K, RET_ALLOW));
                prog.push(stmt(RET_K, refuse));
            }
            Rule::NewNamespace => {
                prog.push(jump(JEQ_K, nr, 0, 4));
                prog.push(stmt(LD_W_ABS, OFFSET_ARG0_LOW));
                prog.push(jump(JSET_K, CLONE_NEW_ANY, 0, 1));
                prog.push(stmt(RET_K, refuse));
                prog.push(stmt(RET_K, RET_ALLOW));
            }
        }
    }
    prog.push(stmt(RET_K, RET_ALLOW));
    Ok(prog)
}

/// The program as bytes (`struct sock_filter[]`, native byte order): what crosses into Python.
pub fn to_bytes(prog: &[Insn]) -> Vec<u8> {
    let mut out = Vec::with_capacity(prog.len() * 8);
    for insn in prog {
        out.extend_from_slice(&insn.code.to_ne_bytes());
        out.push(insn.jt);
        out.push(insn.jf);
        out.extend_from_slice(&insn.k.to_ne_bytes());
    }
    out
}

/// Install `program` (bytes from `to_bytes`) on the calling thread. The kernel requires
/// no_new_privs (or CAP_SYS_ADMIN): without it this fails with EACCES. Irrevocable.
pub fn install(program: &[u8]) -> Result<()> {
    const BPF_MAXINSNS: usize = 4096;
    if program.is_empty() || program.len() % 8 != 0 || program.len() / 8 > BPF_MAXINSNS {
        return Err(Error::Invalid(format!(
            "a seccomp program is 1..={BPF_MAXINSNS} instructions of 8 bytes, not {} bytes",
            program.len()
        )));
    }
    let mut filters: Vec<libc::sock_filter> = program
        .chunks_exact(8)
        .map(|b| libc::sock_filter {
            code: u16::from_ne_bytes([b[0], b[1]]),
            jt: b[2],
            jf: b[3],
            k: u32::from_ne_bytes([b[4], b[5], b[6], b[7]]),
        })
        .collect();
    let fprog = libc::sock_fprog {
        len: filters.len() as u16, // at most BPF_MAXINSNS, checked above
        filter: filters.as_mut_ptr(),
    };
    // SAFETY: fprog points at `filters`, alive for the call; the kernel copies the program.
    let rc = unsafe {
        libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER as libc::c_ulong,
            &fprog as *const libc::sock_fprog as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
        )
    };
    if rc != 0 {
        return Err(std::io::Error::last_os_error().into());
    }
    Ok(())
}

/// The prctl(2) options the worker's drop and the sandbox ask, all with plain integer arguments.
const PLAIN_PRCTL: [libc::c_int; 5] = [
    libc::PR_GET_SECCOMP,
    libc::PR_CAPBSET_READ,
    libc::PR_CAPBSET_DROP,
    libc::PR_SET_NO_NEW_PRIVS,
    libc::PR_GET_NO_NEW_PRIVS,
];

/// prctl(`option`, `arg2`, 0, 0, 0) for an option in `PLAIN_PRCTL`: the call's result, or the
/// OS error it failed with. Any other option is refused before the kernel sees it, so nothing
/// can pass an address through here. (The fork-server used ctypes for these: 0.35 MB of its
/// memory for five calls.)
pub fn prctl_plain(option: i32, arg2: u64) -> Result<i32> {
    if !PLAIN_PRCTL.contains(&option) {
        return Err(Error::Invalid(format!(
            "prctl option {option} is not one of {PLAIN_PRCTL:?}"
        )));
    }
    let zero: libc::c_ulong = 0;
    // SAFETY: every allowed option reads its arguments as integers; none is a pointer.
    let rc = unsafe { libc::prctl(option, arg2 as libc::c_ulong, zero, zero, zero) };
    if rc < 0 {
        return Err(std::io::Error::last_os_error().into());
    }
    Ok(rc)
}

/// Arguments for trying listed call `name` (the isolation probe): chosen so that even a call the
/// filter let through would do nothing (a query, a bad pointer, an invalid combination).
fn probe_args(name: &str) -> [u64; 6] {
    const CLONE_NEWNET_THREAD: u64 = 0x4000_0000 | 0x0001_0000; // EINVAL were it to reach the kernel
    const PTRACE_PEEKDATA: u64 = 2;
    const SYSLOG_SIZE_BUFFER: u64 = 10;
    let inet = libc::AF_INET as u64;
    let stream = libc::SOCK_STREAM as u64;
    match name {
        "socket" => [inet, stream | libc::SOCK_CLOEXEC as u64, 0, 0, 0, 0],
        "socketpair" => [inet, stream, 0, 0, 0, 0],
        "ptrace" => [PTRACE_PEEKDATA, std::process::id() as u64, 0, 0, 0, 0],
        "clone" => [CLONE_NEWNET_THREAD, 0, 0, 0, 0, 0],
        "personality" => [0xFFFF_FFFF, 0, 0, 0, 0, 0], // the query form
        "kexec_load" => [0, 0, 0, 0xFFFF_0000, 0, 0],  // invalid flags
        "syslog" => [SYSLOG_SIZE_BUFFER, 0, 0, 0, 0, 0],
        _ => [0; 6],
    }
}

/// Make every call the filter lists for `arch`, each with `probe_args`: (name, rule, result,
/// errno), errno 0 when the call succeeded. An fd a call made (the filter let it through) is
/// closed. Only for a process the filter confines (the caller checks): outside it these are
/// real calls.
pub fn try_listed(arch: Arch) -> Vec<(&'static str, &'static str, i64, i32)> {
    listed_for(arch)
        .into_iter()
        .map(|(name, number, rule)| {
            let a = probe_args(name);
            // SAFETY: raw syscalls with integer arguments; `probe_args` passes no valid pointer
            // (0 or a flag word), so a call that got through reads or writes nothing of ours.
            let rc = unsafe {
                libc::syscall(number as libc::c_long, a[0], a[1], a[2], a[3], a[4], a[5])
            };
            let errno = if rc == -1 {
                std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
            } else {
                0
            };
            if rc >= 0 && matches!(name, "socket" | "userfaultfd") {
                // SAFETY: the call returned a new fd that nothing else owns.
                unsafe { libc::close(rc as libc::c_int) };
            }
            (name, rule.name(), rc as i64, errno)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const EPERM: u32 = 1;

    /// A classic-BPF interpreter for the five instructions `build` emits: runs the program on
    /// one `seccomp_data` as the kernel would.
    fn run(prog: &[Insn], arch: u32, nr: u32, arg0: u64) -> u32 {
        let word = |offset: u32| -> u32 {
            match offset {
                OFFSET_NR => nr,
                OFFSET_ARCH => arch,
                OFFSET_ARG0_LOW => arg0 as u32,
                other => panic!("the filter loads offset {other}"),
            }
        };
        let mut a = 0u32;
        let mut pc = 0usize;
        loop {
            let insn = prog[pc];
            pc += 1;
            match insn.code {
                LD_W_ABS => a = word(insn.k),
                RET_K => return insn.k,
                JEQ_K | JGE_K | JSET_K => {
                    let taken = match insn.code {
                        JEQ_K => a == insn.k,
                        JGE_K => a >= insn.k,
                        _ => a & insn.k != 0,
                    };
                    pc += usize::from(if taken { insn.jt } else { insn.jf });
                }
                other => panic!("unexpected opcode {other:#x}"),
            }
        }
    }

    fn nr(arch: Arch, name: &str) -> u32 {
        listed_for(arch)
            .into_iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, nr, _)| nr)
            .unwrap_or_else(|| panic!("{name} is not listed"))
    }

    #[test]
    fn every_listed_call_is_refused_on_both_abis_and_others_pass() {
        for arch in [Arch::X86_64, Arch::Aarch64] {
            let prog = build(arch, EPERM).unwrap();
            let audit = arch.audit_arch();
            let listed = listed_for(arch);
            for (name, nr, rule) in &listed {
                let verdict = run(&prog, audit, *nr, 0x2); // AF_INET / no namespace flags
                let expected = match rule {
                    Rule::Refuse | Rule::UnlessUnix => RET_ERRNO | EPERM,
                    Rule::Unsupported => RET_ERRNO | ENOSYS,
                    Rule::NewNamespace => RET_ALLOW,
                };
                assert_eq!(verdict, expected, "{arch:?} {name}");
            }
            // Everything not listed is allowed: every number below 1024 the table does not name.
            for other in 0..1024u32 {
                if listed.iter().all(|(_, nr, _)| *nr != other) {
                    assert_eq!(
                        run(&prog, audit, other, 0),
                        RET_ALLOW,
                        "{arch:?} nr {other}"
                    );
                }
            }
        }
    }

    #[test]
    fn sockets_are_refused_for_every_family_but_unix() {
        for arch in [Arch::X86_64, Arch::Aarch64] {
            let prog = build(arch, EPERM).unwrap();
            for call in ["socket", "socketpair"] {
                let n = nr(arch, call);
                assert_eq!(run(&prog, arch.audit_arch(), n, 1), RET_ALLOW);
                for family in [0u64, 2, 10, 16, 17, 0x1_0000_0001] {
                    // 0x1_0000_0001: the kernel reads an int, so the high half does not matter.
                    let expected = if family as u32 == 1 {
                        RET_ALLOW
                    } else {
                        RET_ERRNO | EPERM
                    };
                    assert_eq!(
                        run(&prog, arch.audit_arch(), n, family),
                        expected,
                        "{family}"
                    );
                }
            }
        }
    }

    #[test]
    fn clone_may_fork_and_make_threads_but_not_namespaces() {
        const SIGCHLD: u64 = 17;
        const THREAD_FLAGS: u64 = 0x003d_0f00; // glibc's pthread_create flags
        for arch in [Arch::X86_64, Arch::Aarch64] {
            let prog = build(arch, EPERM).unwrap();
            let clone = nr(arch, "clone");
            let audit = arch.audit_arch();
            assert_eq!(run(&prog, audit, clone, SIGCHLD), RET_ALLOW);
            assert_eq!(run(&prog, audit, clone, THREAD_FLAGS), RET_ALLOW);
            for ns in [0x0002_0000u64, 0x1000_0000, 0x4000_0000, 0x2000_0000] {
                assert_eq!(run(&prog, audit, clone, SIGCHLD | ns), RET_ERRNO | EPERM);
            }
        }
    }

    #[test]
    fn a_foreign_abi_is_killed() {
        let x86 = build(Arch::X86_64, EPERM).unwrap();
        let arm = build(Arch::Aarch64, EPERM).unwrap();
        const AUDIT_ARCH_I386: u32 = 0x4000_0003;
        const AUDIT_ARCH_ARM: u32 = 0x4000_0028;
        assert_eq!(run(&x86, AUDIT_ARCH_I386, 20, 0), RET_KILL_PROCESS);
        assert_eq!(run(&x86, AUDIT_ARCH_AARCH64, 20, 0), RET_KILL_PROCESS);
        assert_eq!(run(&arm, AUDIT_ARCH_ARM, 20, 0), RET_KILL_PROCESS);
        assert_eq!(run(&arm, AUDIT_ARCH_X86_64, 20, 0), RET_KILL_PROCESS);
        // x32: x86_64's arch value, with the x32 bit in the number (41 is socket).
        assert_eq!(
            run(&x86, AUDIT_ARCH_X86_64, X32_SYSCALL_BIT | 41, 2),
            RET_KILL_PROCESS
        );
        assert_eq!(
            run(&x86, AUDIT_ARCH_X86_64, X32_SYSCALL_BIT | 39, 0),
            RET_KILL_PROCESS
        );
    }

    #[test]
    fn the_errno_is_the_callers_and_must_be_one() {
        let prog = build(Arch::X86_64, 131).unwrap();
        assert_eq!(run(&prog, AUDIT_ARCH_X86_64, 101, 0), RET_ERRNO | 131);
        assert!(matches!(build(Arch::X86_64, 0), Err(Error::Invalid(_))));
        assert!(matches!(build(Arch::X86_64, 4096), Err(Error::Invalid(_))));
    }

    #[test]
    fn the_program_fits_the_kernels_limits_and_round_trips_as_bytes() {
        for arch in [Arch::X86_64, Arch::Aarch64] {
            let prog = build(arch, EPERM).unwrap();
            assert!(prog.len() < 4096);
            let bytes = to_bytes(&prog);
            assert_eq!(bytes.len(), prog.len() * 8);
            assert_eq!(&bytes[..2], &LD_W_ABS.to_ne_bytes());
        }
    }

    #[test]
    fn no_call_is_listed_twice() {
        let mut names: Vec<_> = LISTED.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), LISTED.len());
        for arch in [Arch::X86_64, Arch::Aarch64] {
            let mut numbers: Vec<_> = listed_for(arch).into_iter().map(|c| c.1).collect();
            numbers.sort_unstable();
            numbers.dedup();
            assert_eq!(numbers.len(), listed_for(arch).len(), "{arch:?}");
        }
    }

    /// The table's numbers for the ABI this test runs on are the C library's.
    #[test]
    fn the_native_numbers_match_libc() {
        let arch = Arch::native().unwrap();
        let libc_numbers: &[(&str, libc::c_long)] = &[
            ("socket", libc::SYS_socket),
            ("socketpair", libc::SYS_socketpair),
            ("io_uring_setup", libc::SYS_io_uring_setup),
            ("io_uring_enter", libc::SYS_io_uring_enter),
            ("io_uring_register", libc::SYS_io_uring_register),
            ("ptrace", libc::SYS_ptrace),
            ("process_vm_readv", libc::SYS_process_vm_readv),
            ("process_vm_writev", libc::SYS_process_vm_writev),
            ("process_madvise", libc::SYS_process_madvise),
            ("pidfd_getfd", libc::SYS_pidfd_getfd),
            ("kcmp", libc::SYS_kcmp),
            ("mount", libc::SYS_mount),
            ("umount2", libc::SYS_umount2),
            ("pivot_root", libc::SYS_pivot_root),
            ("chroot", libc::SYS_chroot),
            ("open_tree", libc::SYS_open_tree),
            ("move_mount", libc::SYS_move_mount),
            ("fsopen", libc::SYS_fsopen),
            ("fsconfig", libc::SYS_fsconfig),
            ("fsmount", libc::SYS_fsmount),
            ("fspick", libc::SYS_fspick),
            ("mount_setattr", libc::SYS_mount_setattr),
            ("open_by_handle_at", libc::SYS_open_by_handle_at),
            ("fanotify_init", libc::SYS_fanotify_init),
            ("unshare", libc::SYS_unshare),
            ("setns", libc::SYS_setns),
            ("clone", libc::SYS_clone),
            ("clone3", libc::SYS_clone3),
            ("init_module", libc::SYS_init_module),
            ("finit_module", libc::SYS_finit_module),
            ("delete_module", libc::SYS_delete_module),
            ("kexec_load", libc::SYS_kexec_load),
            ("kexec_file_load", libc::SYS_kexec_file_load),
            ("bpf", libc::SYS_bpf),
            ("perf_event_open", libc::SYS_perf_event_open),
            ("userfaultfd", libc::SYS_userfaultfd),
            ("syslog", libc::SYS_syslog),
            ("keyctl", libc::SYS_keyctl),
            ("add_key", libc::SYS_add_key),
            ("request_key", libc::SYS_request_key),
            ("execve", libc::SYS_execve),
            ("execveat", libc::SYS_execveat),
            ("personality", libc::SYS_personality),
        ];
        for (name, number) in libc_numbers {
            assert_eq!(libc::c_long::from(nr(arch, name)), *number, "{name}");
        }
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(libc::c_long::from(nr(arch, "iopl")), libc::SYS_iopl);
            assert_eq!(libc::c_long::from(nr(arch, "ioperm")), libc::SYS_ioperm);
        }
        // Every listed name for this ABI was checked above.
        let checked = libc_numbers.len() + if arch == Arch::X86_64 { 2 } else { 0 };
        assert_eq!(listed_for(arch).len(), checked);
    }

    #[test]
    fn prctl_plain_asks_and_refuses_pointer_options() {
        // The test process may run under a container's filter (systemd-nspawn installs one):
        // mode 0 or 2. no_new_privs is 0 or 1 (cargo may run as anything), and option
        // 0x59616d61 (PR_SET_PTRACER) takes a pid: not on the list.
        assert!(matches!(
            prctl_plain(libc::PR_GET_SECCOMP, 0).unwrap(),
            0 | 2
        ));
        assert!(matches!(
            prctl_plain(libc::PR_GET_NO_NEW_PRIVS, 0).unwrap(),
            0 | 1
        ));
        assert!(prctl_plain(libc::PR_CAPBSET_READ, 0).unwrap() >= 0);
        match prctl_plain(libc::PR_CAPBSET_READ, 1 << 20) {
            Err(Error::Io(e)) => assert_eq!(e.raw_os_error(), Some(libc::EINVAL)),
            other => panic!("a capability past the last is EINVAL, not {other:?}"),
        }
        assert!(matches!(
            prctl_plain(libc::PR_SET_PTRACER, 0),
            Err(Error::Invalid(_))
        ));
    }
}
