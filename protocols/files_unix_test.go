//go:build unix

package protocols

import "syscall"

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
