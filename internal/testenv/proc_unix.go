//go:build unix

package testenv

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the process in its own group so Stop reaches what it starts too.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

func terminateGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
func killGroup(cmd *exec.Cmd)      { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
