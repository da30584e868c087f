//go:build tools && !linux

package main

import (
	"net"
	"time"
)

// stampArrivals: kernel arrival stamps are read on Linux only; elsewhere a delayed
// reply's wait counts from when the fleet read the request.
func stampArrivals(*net.UDPConn) bool { return false }

const oobSize = 0

func arrivalTime([]byte) (time.Time, bool) { return time.Time{}, false }
