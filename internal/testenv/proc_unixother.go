//go:build unix && !linux

package testenv

import "syscall"

func dieWithParent(*syscall.SysProcAttr) {}
