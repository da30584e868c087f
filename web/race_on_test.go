//go:build race

package web

// raceEnabled: built with -race, whose instrumentation changes frame and goroutine sizes.
const raceEnabled = true
