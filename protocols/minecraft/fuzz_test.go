package minecraft

import (
	"bufio"
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// seeds returns the server side of every vector and, when ../shared is present,
// the fixtures (legacy payloads framed as a kick).
func seeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, name := range prototest.Names(f, ".hex") {
		out = append(out, side(loadExchange(f, name+".hex"), false))
	}
	for _, b := range prototest.SharedFiles("fixtures/minecraft/*.bin") {
		out = append(out, b, append([]byte{0xFF, 0, byte(len(b) / 2)}, b...))
	}
	return out
}

// fuzzStatus fuzzes decode from seeds: an error names its reason, a status is
// valid UTF-8 with sane counts and a capped sample.
func fuzzStatus(f *testing.F, seeds [][]byte, decode func([]byte) (status, error)) {
	for _, b := range seeds {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decode(b)
		if err != nil {
			prototest.CheckReason(t, err)
			return
		}
		res := st.Result(true)
		for _, s := range append([]string{res.Name, res.Version, res.Game}, st.Sample...) {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
		}
		if st.Online.Known && st.Online.Value < 0 || st.Max.Known && st.Max.Value < 0 || len(st.Sample) > maxSample {
			t.Fatalf("bad counts %+v", st)
		}
	})
}

// FuzzDecodePacket reads frames until the input ends: never a panic, never a
// frame over the cap, every error with a reason.
func FuzzDecodePacket(f *testing.F) {
	for _, b := range seeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		for range 64 {
			_, data, err := readPacket(r, 1024)
			if err != nil {
				prototest.CheckReason(t, err)
				return
			}
			if len(data) >= 1024 {
				t.Fatalf("frame data of %d bytes over the cap", len(data))
			}
		}
	})
}

// FuzzDecodeResponse runs the whole reply decoder (modern frame or legacy kick).
func FuzzDecodeResponse(f *testing.F) {
	fuzzStatus(f, seeds(f), func(b []byte) (status, error) { return readResponse(bufio.NewReader(bytes.NewReader(b))) })
}

// FuzzDecodeStatusJSON feeds the JSON decoder directly.
func FuzzDecodeStatusJSON(f *testing.F) {
	var in [][]byte
	for _, s := range []string{
		statusJSON,
		`{"description":{"text":"a","extra":["b",{"text":"c","extra":[1,true,null]}]},"players":{"online":1,"max":2,"sample":[{"name":"x","id":"y"}]}}`,
		`{"description":[{"text":"§a"},"b"],"players":{"online":"1","max":-2,"sample":{}},"version":{"name":5,"protocol":"x"}}`,
		`{"modinfo":{"type":"FML","modList":[{}]},"forgeData":{"mods":[1,2]},"isModded":true,"enforcesSecureChat":1}`,
		`{}`, `[]`, `null`, `{"description":`,
	} {
		in = append(in, []byte(s))
	}
	for _, b := range seeds(f) {
		if i := bytes.IndexByte(b, '{'); i >= 0 {
			in = append(in, b[i:])
		}
	}
	fuzzStatus(f, in, parseStatusJSON)
}

// FuzzDecodeLegacy feeds the legacy kick text decoder directly.
func FuzzDecodeLegacy(f *testing.F) {
	var in [][]byte
	for _, b := range seeds(f) {
		if len(b) > 3 && b[0] == 0xFF {
			in = append(in, b[3:])
		}
	}
	fuzzStatus(f, in, decodeLegacyKick)
}
