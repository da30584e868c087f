package cube2

import (
	"slices"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstatCrossCheck queries the same fake server with `quakestat -cubes` and
// with the Querier. quakestat takes the game port and queries port + 1 (with the
// ping 80 10 27), so it is given the fake server's port - 1. Its mode and master
// mode rules are off by one attribute and not compared.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	for _, tc := range []struct {
		name string
		body func(t *testing.T) []byte
	}{
		{"plain", func(t *testing.T) []byte { return body(t, "info_sauer_plain.hex", 1) }},
		{"paused_password", func(t *testing.T) []byte { return body(t, "info_sauer_paused.hex", 1) }},
		{"realworld_capture", func(t *testing.T) []byte {
			req := prototest.Capture(t, "cube2_sauerbraten_cube2-info.req.bin")
			return prototest.Capture(t, "cube2_sauerbraten_cube2-info.resp.bin")[len(req):]
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := tc.body(t)
			addr := prototest.UDP(t, func(req []byte) [][]byte {
				if len(req) == 0 || req[0] == 0 {
					return nil
				}
				return [][]byte{append(slices.Clone(req), info...)}
			})
			prototest.QstatQuery(t, "-cubes", addr, Protocol, protocols.Settings{})
		})
	}
}
