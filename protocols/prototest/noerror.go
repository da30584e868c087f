package prototest

import "testing"

// NoError fails the test at once when err is set: a step (a decoding, a
// probe) the rest of the test builds on.
func NoError(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
