package mctext

import "testing"

func TestStripCodes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"§aGreen §lbold§r end", "Green bold end"},
		{"§x§r§r§g§g§b§bHex", "Hex"},
		{"trailing §", "trailing "},
		{"§§a", "a"},
		{"Café §6日本", "Café 日本"},
		{"", ""},
	} {
		if got := StripCodes(c.in); got != c.want {
			t.Errorf("StripCodes(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
