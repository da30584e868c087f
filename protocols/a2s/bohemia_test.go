package a2s

import (
	"errors"
	"strconv"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Own vectors (testdata/mkbohemia.py): Arma 3 and DayZ rules carrying the server
// browser message, and the info keywords with the login queue.

var (
	armaMods = []protocols.Mod{{Name: "CBA_A3", ID: "450814997"}, {Name: "ace", ID: "463939057"}, {Name: "@lokalé"}}
	dayzMods = []protocols.Mod{{Name: "Community-Online-Tools", ID: "1564026768"}, {Name: "DayZ-Expansion-Core", ID: "2291785308"}}
	dayzText = []string{"allowedBuild", "dedicated", "island", "language", "platform", "requiredBuild", "requiredVersion", "timeLeft"}
)

func TestBohemiaRulesVectors(t *testing.T) {
	tests := []struct {
		file      string
		app       uint32
		wantMods  []protocols.Mod // nil: none read
		wantRules []string        // keys of the textual rules
		err       error           // why the mod list was not read
	}{
		{file: "rules_arma3_mods.hex", app: appIDArma3, wantMods: armaMods},
		{file: "rules_arma3_reordered.hex", app: appIDArma3, wantMods: armaMods},
		{file: "rules_arma3_no_mods.hex", app: appIDArma3, wantMods: []protocols.Mod{}},
		{file: "rules_dayz_mods.hex", app: steam.AppIDDayZ, wantMods: dayzMods, wantRules: dayzText},
		{file: "rules_dayz_mods.hex", app: steam.AppIDDayZExperimental, wantMods: dayzMods, wantRules: dayzText},
		{file: "rules_dayz_missing_chunk.hex", app: steam.AppIDDayZ, wantRules: dayzText, err: wire.ErrMalformed},
		{file: "rules_arma3_duplicate_chunk.hex", app: appIDArma3, err: wire.ErrMalformed},
		{file: "rules_arma3_counts_disagree.hex", app: appIDArma3, err: wire.ErrMalformed},
		{file: "rules_arma3_bad_escape.hex", app: appIDArma3, err: wire.ErrMalformed},
		{file: "rules_arma3_dangling_escape.hex", app: appIDArma3, err: wire.ErrTruncated},
		{file: "rules_arma3_lying_length.hex", app: appIDArma3, err: wire.ErrTruncated},
		{file: "rules_arma3_truncated.hex", app: appIDArma3, err: wire.ErrTruncated},
		{file: "rules_arma3_unknown_version.hex", app: appIDArma3, err: wire.ErrMalformed},
		// Read with the other game's layout, the message does not parse.
		{file: "rules_arma3_mods.hex", app: steam.AppIDDayZ, err: wire.ErrMalformed},
		{file: "rules_dayz_mods.hex", app: appIDArma3, wantRules: dayzText, err: wire.ErrMalformed},
		// Plain rules of a bohemia game: nothing to read, no mods, no error.
		{file: "rules_basic.hex", app: appIDArma3, wantRules: []string{"mp_friendlyfire", "sv_tags", "hostname_latin1"}},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+strconv.Itoa(int(tt.app)), func(t *testing.T) {
			r, err := steam.DecodeRules(readHex(t, tt.file))
			prototest.NoError(t, err)
			rules, mods, err := rulesFor(r, tt.app)
			if tt.err == nil && err != nil || tt.err != nil && !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			eq(t, "mods", mods, tt.wantMods)
			eq(t, "textual rules", ruleKeys(rules), tt.wantRules)
		})
	}
}

func TestBohemiaOtherGamesUntouched(t *testing.T) {
	// Chunk-shaped keys mean nothing outside Arma 3 and DayZ: the rules stay as sent.
	r, err := steam.DecodeRules(readHex(t, "rules_arma3_mods.hex"))
	prototest.NoError(t, err)
	for _, app := range []uint32{0, 440, steam.AppIDRust, 107410 & 0xFFFF} {
		rules, mods, err := rulesFor(r, app)
		eq(t, "err, mods, rules, rule count", [4]any{err, mods, rules, len(rules)}, [4]any{nil, []protocols.Mod(nil), r.Result(), 2})
	}
}

func TestDecodeBohemiaDetails(t *testing.T) {
	b, err := decodeBohemia(mustUnescape(t, "rules_arma3_mods.hex"), layoutArma3)
	eq(t, "version, dlc, creator dlc, signatures, hash, description, err", [7]any{b.Version, b.DLC, b.CreatorDLC, b.Signatures, b.Mods[0].Hash, b.Description, err},
		[7]any{byte(3), uint16(0x11), []uint64{1042220}, 2, uint32(0xFF000001), "", nil})
	d, err := decodeBohemia(mustUnescape(t, "rules_dayz_mods.hex"), layoutDayZ)
	eq(t, "dayz description, version, err", [3]any{d.Description, d.Version, err}, [3]any{"Test hive", byte(2), nil})

	// Short and long ID forms, a name that is not UTF-8, a trailing field of a later
	// revision, and IDs longer than 8 bytes.
	head := []byte{3, 0, 0, 0, 0, 0}
	tests := []struct {
		name string
		body []byte
		want []protocols.Mod
		err  error
	}{
		{"id 1 byte", []byte{1, 0, 0, 0, 0, 1, 7, 1, 'x', 0}, []protocols.Mod{{Name: "x", ID: "7"}}, nil},
		{"id 8 bytes", []byte{1, 0, 0, 0, 0, 8, 1, 0, 0, 0, 0, 0, 0, 0x80, 0, 0}, []protocols.Mod{{ID: "9223372036854775809"}}, nil},
		{"id absent", []byte{1, 0, 0, 0, 0, 0, 2, 'a', 'b', 0}, []protocols.Mod{{Name: "ab"}}, nil},
		{"latin-1 name", []byte{1, 0, 0, 0, 0, 0, 2, 'M', 0xFC, 0}, []protocols.Mod{{Name: "Mü"}}, nil},
		{"trailing field", []byte{0, 0, 0xAA, 0xBB}, []protocols.Mod{}, nil},
		{"id 9 bytes", []byte{1, 0, 0, 0, 0, 9}, nil, wire.ErrMalformed},
		{"no signature count", []byte{0}, nil, wire.ErrTruncated},
		{"signature cut", []byte{0, 1, 5, 'a'}, nil, wire.ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := decodeBohemia(append(append([]byte{}, head...), tt.body...), layoutArma3)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err == nil {
				eq(t, "mods", b.result(), tt.want)
			}
		})
	}
	if _, err := decodeBohemia([]byte{3, 0, 0, 0, 0, 0, 0, 0}, layoutNone); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("no layout: err = %v", err)
	}
	if _, err := decodeBohemia(nil, layoutDayZ); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("empty: err = %v", err)
	}
}

// ruleKeys lists the keys of rules, nil for none.
func ruleKeys(kv []protocols.KV) []string {
	if len(kv) == 0 {
		return nil
	}
	return keys(kv)
}

// mustUnescape returns the reassembled message of a rules vector.
func mustUnescape(t *testing.T, file string) []byte {
	t.Helper()
	r, err := steam.DecodeRules(readHex(t, file))
	prototest.NoError(t, err)
	msg, err := reassembleBohemia(r.List[:chunkRun(r.List)])
	prototest.NoError(t, err)
	return msg
}

func TestUnescapeBohemia(t *testing.T) {
	tests := []struct {
		in, want string
		err      error
	}{
		{"", "", nil},
		{"ab", "ab", nil},
		{"\x01\x01\x01\x02\x01\x03", "\x01\x00\xff", nil},
		{"a\x01\x02\x01\x01b", "a\x00\x01b", nil},
		{"\xff", "\xff", nil}, // unescaped 0xFF: harmless, kept
		{"\x01", "", wire.ErrTruncated},
		{"a\x01\x00", "", wire.ErrMalformed},
		{"\x01\x04", "", wire.ErrMalformed},
	}
	for _, tt := range tests {
		got, err := unescapeBohemia([]byte(tt.in))
		if !errors.Is(err, tt.err) || err == nil && string(got) != tt.want {
			t.Errorf("unescape(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestChunkRun(t *testing.T) {
	kv := func(ks ...string) []protocols.KV {
		out := make([]protocols.KV, len(ks))
		for i, k := range ks {
			out[i].Key = k
		}
		return out
	}
	// none; a leading run ('a' <= 'b': a printable two-byte key has the shape too);
	// a run that stops; index 0; an index past the count; three bytes
	eq(t, "runs", []int{chunkRun(kv("hostname", "\x01\x01")), chunkRun(kv("\x01\x02", "\x02\x02", "ab", "hostname", "\x01\x01")),
		chunkRun(kv("\x01\x02", "island", "\x02\x02")), chunkRun(kv("\x00\x01")), chunkRun(kv("\x03\x02")), chunkRun(kv("\x01\x02\x03"))},
		[]int{0, 3, 1, 0, 0, 0})
}

func TestInfoQueue(t *testing.T) {
	tests := []struct {
		file      string
		queue     protocols.Count
		infoQueue string // queued_players in the debug Info, "" when absent
	}{
		{"info_rust.hex", protocols.Known(7), "7"},
		{"info_dayz.hex", protocols.Known(12), "12"},
		{"info_arma3.hex", protocols.Count{}, ""}, // lqs5 outside DayZ is no queue
		{"info_edf_all.hex", protocols.Count{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			in, err := steam.DecodeInfo(readHex(t, tt.file))
			prototest.NoError(t, err)
			r := in.Result()
			eq(t, "queue, info queued_players", [2]any{r.Queue, prototest.InfoOf(r)["queued_players"]}, [2]any{tt.queue, tt.infoQueue})
			checkKV(t, r.InfoKV())
			if tt.file == "info_dayz.hex" {
				eq(t, "dayz app, players", [2]any{in.FullAppID(), r.Players}, [2]any{uint32(steam.AppIDDayZ), protocols.Known(60)})
			}
		})
	}
}

// Round trips through the Querier against fake servers answering info (the right
// app id and keywords), the challenge, and the rules.
func TestQueryBohemia(t *testing.T) {
	for _, tt := range []struct {
		name, info, reply string
		infoChallenge     bool
		phases            string
		queue             protocols.Count
		mods              []protocols.Mod
		rules             []string // keys
		logged            bool     // "mod list not read"
	}{
		{name: "Arma 3 mods", info: "info_arma3.hex", reply: "rules_arma3_mods.hex", phases: "info,rules", mods: armaMods, rules: []string{}},
		{name: "DayZ queue and mods", info: "info_dayz.hex", reply: "rules_dayz_mods.hex", infoChallenge: true,
			phases: "challenge,info,rules", queue: protocols.Known(12), mods: dayzMods, rules: dayzText},
		// A mod list that cannot be read costs the mods, never the probe or the rules.
		{name: "DayZ bad mods keep the rules", info: "info_dayz.hex", reply: "rules_dayz_missing_chunk.hex",
			phases: "info,rules", queue: protocols.Known(12), rules: dayzText, logged: true},
		// The same chunk-shaped rules from a game that is not Arma 3 or DayZ.
		{name: "rules of another game", info: "info_edf_all.hex", reply: "rules_arma3_mods.hex", phases: "info,rules",
			rules: []string{"\x01\x02", "\x02\x02"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fake{Info: one(readHex(t, tt.info)), Rules: one(readHex(t, tt.reply)), InfoChallenge: tt.infoChallenge, Challenge: []byte{9, 8, 7, 6}}
			res, tr, err := query(t, f.Start(t), protocols.Settings{Rules: true}, 2*time.Second)
			if err != nil || len(res.PhaseErrors) != 0 {
				t.Fatal(err, res)
			}
			eq(t, "phases", prototest.PhaseNames(tr), tt.phases)
			eq(t, "queue", res.Queue, tt.queue)
			eq(t, "mods", res.Mods, tt.mods)
			eq(t, "rules", [2]any{res.Rules != nil, keys(res.Rules)}, [2]any{true, tt.rules})
			eq(t, "logged in the trace", prototest.Logged(tr, "mod list not read"), tt.logged)
			if tt.infoChallenge {
				eq(t, "island", res.Rules[2], protocols.KV{Key: "island", Value: "chernarusplus"})
			} else {
				eq(t, "requests", len(f.Sent()), 3) // info, rules -1, rules with challenge
			}
		})
	}
}

// FuzzDecodeBohemiaRules feeds rules replies through the Arma 3, DayZ and plain
// readings: never a panic, at most maxMods mods of valid UTF-8 with decimal IDs, no
// chunk pair left among the rules of a bohemia game, and mods only with no error.
func FuzzDecodeBohemiaRules(f *testing.F) {
	for _, d := range datagrams(f) {
		for _, app := range []uint32{appIDArma3, steam.AppIDDayZ, 440} {
			f.Add(d, app)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, app uint32) {
		r, err := steam.DecodeRules(b)
		if err != nil {
			return
		}
		rules, mods, err := rulesFor(r, app)
		if err != nil && mods != nil {
			t.Fatalf("mods %v with error %v", mods, err)
		}
		if len(mods) > maxMods || len(rules) > len(r.List) {
			t.Fatalf("%d mods, %d rules of %d", len(mods), len(rules), len(r.List))
		}
		for _, m := range mods {
			if !utf8.ValidString(m.Name) {
				t.Fatalf("invalid UTF-8 mod name %q", m.Name)
			}
			if m.ID != "" {
				if n, err := strconv.ParseUint(m.ID, 10, 64); err != nil || n == 0 {
					t.Fatalf("bad mod id %q", m.ID)
				}
			}
		}
		if bohemiaLayoutOf(app) != layoutNone && len(rules) > 0 && isChunkKey(rules[0].Key) {
			t.Fatalf("chunk pair %q left in the rules", rules[0].Key)
		}
		for _, kv := range rules {
			if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
				t.Fatalf("invalid UTF-8 rule %q=%q", kv.Key, kv.Value)
			}
		}
	})
}
