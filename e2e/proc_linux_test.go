package e2e

import "syscall"

// dieWithParent: on Linux the child is killed if this test binary dies first.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
