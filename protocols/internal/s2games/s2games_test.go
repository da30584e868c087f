package s2games

import "testing"

func TestStrip(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "plain", "^yYellow": "Yellow", "^900XR ^g1.3": "XR 1.3", "^12x": "^12x", "a^": "a^", "^^AA": "^A",
	} {
		if got := Strip(in); got != want {
			t.Errorf("Strip(%q) = %q, want %q", in, got, want)
		}
	}
}
