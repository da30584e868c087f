//go:build !unix

package protocols

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs here") }
