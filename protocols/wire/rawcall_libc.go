//go:build unix && !(linux || freebsd || netbsd || dragonfly)

package wire

import "syscall"

// sysRead and sysWrite: macOS, OpenBSD and the Solarises take system calls
// through libc only (rawcall_direct.go says what the direct ones save).
func sysRead(fd uintptr, b []byte) (int, error)  { return syscall.Read(int(fd), b) }
func sysWrite(fd uintptr, b []byte) (int, error) { return syscall.Write(int(fd), b) }
