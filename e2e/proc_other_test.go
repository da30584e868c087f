//go:build !unix

package e2e

import "os/exec"

// Without process groups the end-to-end suite (Linux in CI) stops the process alone.
func ownGroup(*exec.Cmd)           {}
func terminateGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
func killGroup(cmd *exec.Cmd)      { cmd.Process.Kill() }
