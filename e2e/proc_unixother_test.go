//go:build unix && !linux

package e2e

import "syscall"

func dieWithParent(*syscall.SysProcAttr) {}
