// Package rawsys makes the read, write and send system calls of a non-blocking
// socket, from a syscall.RawConn's callback, without marking the goroutine's P as
// in a system call. A plain Read or Write does, and the first such mark after a
// moment with every P idle wakes the runtime's sysmon, which then polls every
// 20 µs for a millisecond and more: on a busy exporter, thousands of wake-ups a
// second and a tenth of its CPU. A non-blocking call returns at once, so nothing
// is lost by keeping the P. Linux, FreeBSD, NetBSD and DragonFly take system calls
// directly (direct.go); macOS, OpenBSD and the Solarises only through libc
// (libc.go), which the runtime marks. Each call is made again when interrupted
// (EINTR), so callers see 0, EAGAIN or the error.
package rawsys
