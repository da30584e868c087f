package testenv

import "syscall"

// dieWithParent: on Linux the child is killed if the test binary dies first.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
