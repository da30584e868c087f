package testenv

import "testing"

func TestLoadTestSkipsUnlessAsked(t *testing.T) {
	t.Setenv("GSE_LOAD_TESTS", "")
	ran := false
	t.Run("gated", func(t *testing.T) {
		LoadTest(t)
		ran = true
	})
	if ran {
		t.Error("LoadTest did not skip without GSE_LOAD_TESTS")
	}
	t.Setenv("GSE_LOAD_TESTS", "1")
	t.Run("asked", func(t *testing.T) {
		LoadTest(t)
		ran = true
	})
	if !ran {
		t.Error("LoadTest skipped with GSE_LOAD_TESTS=1")
	}
}
