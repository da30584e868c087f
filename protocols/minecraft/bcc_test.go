package minecraft

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// statusData builds a Status Response's data (after the id): the JSON as a String,
// then tail as it is.
func statusData(js string, tail []byte) []byte {
	b := appendVarInt(nil, int32(len(js)))
	return append(append(b, js...), tail...)
}

// str is a String: VarInt byte length, then the bytes.
func str(s string) []byte { return append(appendVarInt(nil, int32(len(s))), s...) }

func TestModpackShapes(t *testing.T) {
	const base = `"version":{"name":"1.20.1","protocol":763}`
	for _, c := range []struct {
		name     string
		js       string
		tail     []byte
		pack     string // name/version/release/source, "-" for none
		modded   protocols.Flag
		warnings int
		info     map[string]string
	}{
		{name: "none", js: `{` + base + `}`, pack: "-"},
		{name: "placeholders", js: `{` + base + `,"betterStatus":{"name":"CHANGE_ME","version":"??"}}`,
			pack: "///betterStatus", modded: protocols.FlagTrue},
		{name: "forge better-status", js: `{` + base + `,"better-status":{"name":"P","version":"1","releaseType":"beta","projectId":-1}}`,
			pack: "P/1/beta/better-status", modded: protocols.FlagTrue, info: map[string]string{"modpack_project_id": ""}},
		{name: "in JSON wins over second string", js: `{` + base + `,"betterStatus":{"name":"A"}}`, tail: str(`{"name":"B"}`),
			pack: "A///betterStatus", modded: protocols.FlagTrue},
		{name: "old projectID", js: `{` + base + `,"modpackData":{"projectID":42,"name":"§aOld","version":7}}`,
			pack: "Old///modpackData", modded: protocols.FlagTrue, warnings: 1,
			info: map[string]string{"modpack": "Old", "modpack_project_id": "42", "modpack_source": "modpackData"}},
		{name: "not an object", js: `{` + base + `,"betterStatus":"x"}`, pack: "-", warnings: 1},
		{name: "second string", js: `{` + base + `}`, tail: str(` {"name":"S","version":"2","releaseType":"release","projectId":9}`),
			pack: "S/2/release/second_string", modded: protocols.FlagTrue,
			info: map[string]string{"modpack": "S", "modpack_version": "2", "modpack_release_type": "release", "modpack_project_id": "9"}},
		{name: "second string too long", js: `{` + base + `}`, tail: []byte{0x7f, '{', '}'}, pack: "-", warnings: 1},
		{name: "second string not JSON", js: `{` + base + `}`, tail: str("hello"), pack: "-", warnings: 1},
		{name: "second string bad JSON", js: `{` + base + `}`, tail: str(`{"name":`), pack: "-", warnings: 1},
		{name: "junk VarInt", js: `{` + base + `}`, tail: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, pack: "-", warnings: 1},
		{name: "zero length", js: `{` + base + `}`, tail: []byte{0}, pack: "-", warnings: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := decodeStatusResponse(statusData(c.js, c.tail))
			prototest.NoError(t, err)
			pack := "-"
			if p := st.Pack; p != nil {
				pack = strings.Join([]string{p.Name, p.Version, p.ReleaseType, p.Source}, "/")
			}
			if pack != c.pack || st.Modded != c.modded || len(st.Warnings) != c.warnings || st.Trailing != len(c.tail) {
				t.Errorf("pack %q modded %v warnings %q trailing %d, want %q %v %d %d",
					pack, st.Modded, st.Warnings, st.Trailing, c.pack, c.modded, c.warnings, len(c.tail))
			}
			got := prototest.InfoOf(st.Result(false))
			for k, v := range c.info {
				if got[k] != v { // "": not reported
					t.Errorf("Info[%s] = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}
