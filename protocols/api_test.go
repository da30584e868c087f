package protocols

import (
	"net/netip"
	"testing"
)

func TestAPIURL(t *testing.T) {
	addr := netip.MustParseAddrPort("127.0.0.1:8443")
	at := func(a netip.AddrPort) string { return "http://" + a.String() }
	tests := []struct {
		api  API
		path string
		want string
	}{
		{API{Base: "https://discord.com"}, "/api/guilds/1/widget.json", "https://discord.com/api/guilds/1/widget.json"},
		{API{Base: "https://hawakening.com/api"}, "/gameServerListings", "https://hawakening.com/api/gameServerListings"},
		{API{Base: "https://discord.com", At: at}, "/api/guilds/1/widget.json", "http://127.0.0.1:8443/api/guilds/1/widget.json"},
		{API{At: at}, "", "http://127.0.0.1:8443"},
	}
	for _, tc := range tests {
		if got := tc.api.URL(addr, tc.path); got != tc.want {
			t.Errorf("%+v.URL(%q) = %q, want %q", tc.api, tc.path, got, tc.want)
		}
	}
}

func TestDigits(t *testing.T) {
	tests := []struct {
		s    string
		max  int
		want bool
	}{
		{"1", 20, true},
		{"18446744073709551615", 20, true},
		{"184467440737095516150", 20, false},
		{"123", 3, true},
		{"1234", 3, false},
		{"", 20, false},
		{"12a", 20, false},
		{" 1", 20, false},
		{"-1", 20, false},
		{"../1", 20, false},
		{"1?x=", 20, false},
		{"١", 20, false}, // an Arabic-Indic one: a digit, not an ASCII one
	}
	for _, tc := range tests {
		if got := Digits(tc.s, tc.max); got != tc.want {
			t.Errorf("Digits(%q, %d) = %v, want %v", tc.s, tc.max, got, tc.want)
		}
	}
}
