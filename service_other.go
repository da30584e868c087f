//go:build !windows

package main

// runAsService: only Windows has a service manager that needs talking to; systemd
// and friends run the binary as it is (examples/systemd).
func runAsService([]string) (int, bool) { return 0, false }
