package bedrock

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Every vector in testdata/ echoes this time and carries this server GUID.
const (
	vecTime int64  = 0x0000018f3a5c7e91
	vecGUID uint64 = 0xa5b10c2f44e6138d
)

func vec(t testing.TB, name string) []byte { return prototest.HexFile(t, name+".hex") }

// want is a testdata/NAME.expected.json: what the Result and Info of NAME.hex
// hold, or the error decode returns (Error) and the reason the querier skips
// the datagram for instead (Skipped; none when it takes it as the answer).
type want struct {
	prototest.Expected
	Fields  int      // fields kept
	Absent  []string // Info keys that must not be there
	Skipped string
}

func TestVectors(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		p, err := decode(b)
		if skip := answers(b, vecTime); wire.Reason(skip) != w.Skipped && !(skip == nil && w.Skipped == "") {
			t.Errorf("answers = %v, want %s", skip, w.Skipped)
		}
		if err != nil {
			if p != nil {
				t.Errorf("pong %+v with error %v", p, err)
			}
			prototest.CheckExpected(t, w.Expected, nil, err)
			return
		}
		if p.time != vecTime || p.guid != vecGUID || len(p.fields) != w.Fields {
			t.Errorf("time %#x guid %#x fields %d, want %#x %#x %d", p.time, p.guid, len(p.fields), vecTime, vecGUID, w.Fields)
		}
		res := p.result()
		prototest.CheckExpected(t, w.Expected, res, err) // Players is the pong's count as sent; it knows no bots ("bots": null)
		if strings.HasSuffix(t.Name(), "/bds_full") {
			prototest.CheckBots(t, res, 3, prototest.Unknown, true)
		}
		kv := res.InfoKV()
		if res.PlayerList != nil || kv[0].Key != "raknet_guid" || kv[1].Key != "edition" || kv[2].Key != "motd" {
			t.Errorf("player list %v; info not in wire order: %q", res.PlayerList, kv[:3])
		}
		prototest.CheckUTF8(t, &protocols.Result{Info: kv})
		for _, k := range w.Absent {
			if v, ok := prototest.KVMap(kv)[k]; ok {
				t.Errorf("info %s = %q, want none", k, v)
			}
		}
	})
}

// A pong echoing another time answers someone else's ping: skipped as a mismatch,
// whether it is whole or cut right after the time.
func TestAnswersTime(t *testing.T) {
	b := vec(t, "bds_full")
	for _, n := range []int{len(b), 9} {
		if err := answers(b[:n], vecTime+1); !errors.Is(err, wire.ErrMismatch) {
			t.Errorf("%d bytes, other time: %v, want mismatch", n, err)
		}
	}
	// Cut before the time ends: nothing to compare yet, decode says truncated.
	if err := answers(b[:5], vecTime+1); err != nil {
		t.Errorf("5 bytes: %v", err)
	}
	if _, err := decode(b[:5]); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("decode 5 bytes: %v", err)
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a;", []string{"a"}},
		{"a;;", []string{"a", ""}},
		{"a;b", []string{"a", "b"}},
		{`a\;b;c`, []string{"a;b", "c"}},
		{`a\;b\;c;d\;`, []string{"a;b;c", "d;"}},
		{`a\b;c\`, []string{`a\b`, `c\`}},
		{`\;`, []string{";"}},
	} {
		got, dropped := split(tc.in)
		if !slices.Equal(got, tc.want) || dropped != 0 {
			t.Errorf("split(%q) = %q, %d; want %q", tc.in, got, dropped, tc.want)
		}
	}
	got, dropped := split(strings.Repeat("x;", maxFields+5))
	if len(got) != maxFields || dropped != 5 {
		t.Errorf("%d fields kept, %d dropped", len(got), dropped)
	}
}

func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"  plain  ":        "plain",
		"§a§lBold §rgreen": "Bold green",
		"end§":             "end",
		"§§x":              "x",
		"§ü umlaut":        "umlaut",
		"€§x€":             "€€",
	} {
		if got := plain(in); got != want {
			t.Errorf("plain(%q) = %q, want %q", in, got, want)
		}
	}
}

// The ping is the layout of the docs: 01, time, magic, client GUID.
func TestPing(t *testing.T) {
	got := ping(vecTime, 7)
	want := prototest.HexFile(t, "err_ping.hex")
	if string(got) != string(want) {
		t.Errorf("ping = % x\nwant   % x", got, want)
	}
}
