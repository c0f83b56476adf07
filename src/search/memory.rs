//! How much memory the system can still give: the hash table is refused up front rather than
//! allocated on the strength of Linux's overcommit and then killed by the OOM killer when its
//! pages are touched, or allocated to the last byte of an address-space limit (`ulimit -v`) so
//! that the search's own allocations then abort the process.

/// Asks the kernel to back the memory from `start`, `len` bytes, with huge pages (2 MiB) where
/// it can, before the memory is first touched: the hash table is read at random addresses, and
/// with 4 KiB pages nearly every probe also missed the TLB. Advice only: where transparent huge
/// pages are off, or on another system, nothing changes.
pub fn advise_huge_pages(start: *const u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        let begin = (start as usize).next_multiple_of(HUGE_PAGE);
        let end = (start as usize).saturating_add(len) / HUGE_PAGE * HUGE_PAGE;
        if end > begin {
            // SAFETY: the range lies inside an allocation the caller owns; MADV_HUGEPAGE only
            // changes how the kernel backs those pages, never their contents or their mapping,
            // and a failure is advice not taken (the result is not needed).
            unsafe { libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

/// Bytes the process can still obtain without pushing the system into swapping or the OOM
/// killer: the kernel's `MemAvailable`, lowered by a cgroup memory limit if one applies.
/// `None` where neither can be read (not Linux): the allocator alone decides there.
pub fn available_bytes() -> Option<u64> {
    let system = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| mem_available(&text));
    let cgroup = cgroup_headroom();
    match (system, cgroup) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Bytes of address space left below this process's `RLIMIT_AS` (`ulimit -v`), if it has one
/// and it can be read (Linux: `/proc/self/limits` and `VmSize` in `/proc/self/status`).
pub fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    Some(address_space_limit(&limits)?.saturating_sub(vm_size(&status)?))
}

/// The soft "Max address space" of a `/proc/self/limits` text, in bytes (`None`: unlimited).
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..].split_whitespace().next()?.parse().ok()
}

/// `VmSize` of a `/proc/self/status` text, in bytes.
fn vm_size(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kib: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") | None => kib.checked_mul(1024),
        Some(_) => None,
    }
}

/// What is left below this process's cgroup memory limit (v2, then v1), if it has one.
fn cgroup_headroom() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let number = |text: Option<String>| text.and_then(|t| t.trim().parse::<u64>().ok());
    let v2 = number(read("/sys/fs/cgroup/memory.max")).zip(number(read("/sys/fs/cgroup/memory.current")));
    let v1 = || {
        number(read("/sys/fs/cgroup/memory/memory.limit_in_bytes"))
            .zip(number(read("/sys/fs/cgroup/memory/memory.usage_in_bytes")))
    };
    // "max" (no limit) does not parse, and a v1 "no limit" is a number near 2^63: both mean none.
    v2.or_else(v1).filter(|&(limit, _)| limit < 1 << 62).map(|(limit, used)| limit.saturating_sub(used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available_in_bytes() {
        let text = "MemTotal:       24684096 kB\nMemFree:  100 kB\nMemAvailable:   23919556 kB\n";
        assert_eq!(mem_available(text), Some(23_919_556 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots kB\n"), None);
    }

    #[test]
    fn reads_the_address_space_limit_and_size() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max address space         2048000000           unlimited            bytes\n";
        assert_eq!(address_space_limit(limits), Some(2_048_000_000));
        let unlimited = "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
        assert_eq!(vm_size("Name:\tchariot\nVmSize:\t    3892 kB\n"), Some(3892 * 1024));
    }

    #[test]
    fn this_machine_reports_some_memory() {
        if cfg!(target_os = "linux") {
            let bytes = available_bytes().expect("Linux has /proc/meminfo");
            assert!(bytes > 1 << 20, "{bytes}");
        }
    }
}
