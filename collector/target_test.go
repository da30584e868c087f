package collector

import "testing"

func TestParseTarget(t *testing.T) {
	for _, tt := range []struct {
		target string
		host   string
		port   uint16
		bad    bool
	}{
		{target: "127.0.0.1:27015", host: "127.0.0.1", port: 27015},
		{target: "127.0.0.1", host: "127.0.0.1"},
		{target: "::1", host: "::1"},
		{target: "[::1]:27015", host: "::1", port: 27015},
		{target: "[2001:db8::1]", bad: true},
		{target: "::ffff:1.2.3.4", host: "::ffff:1.2.3.4"},
		{target: "[::ffff:1.2.3.4]:7", host: "::ffff:1.2.3.4", port: 7},
		{target: "play.example.com:25565", host: "play.example.com", port: 25565},
		{target: "play.example.com", host: "play.example.com"},
		{target: "127.0.0.1:0", bad: true},
		{target: "127.0.0.1:65536", bad: true},
		{target: "127.0.0.1:x", bad: true},
		{target: "host name:1", bad: true},
		{target: "", bad: true},
		{target: "a:b:c", bad: true},
	} {
		host, port, err := parseTarget(tt.target)
		if (err != nil) != tt.bad || host != tt.host || port != tt.port {
			t.Errorf("parseTarget(%q) = %q, %d, %v; want %q, %d, bad=%v", tt.target, host, port, err, tt.host, tt.port, tt.bad)
		}
	}
}
