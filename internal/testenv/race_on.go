//go:build race

package testenv

// Race says the binary is built with -race, whose instrumentation changes frame
// and goroutine sizes and adds allocations of its own: tests that count either
// judge the build users run.
const Race = true
