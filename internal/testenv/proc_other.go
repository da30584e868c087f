//go:build !unix

package testenv

import "os/exec"

// Without process groups (the end-to-end tests run on Linux) the process stops alone.
func ownGroup(*exec.Cmd)           {}
func terminateGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
func killGroup(cmd *exec.Cmd)      { cmd.Process.Kill() }
