package goldsrc

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The real captures of shared/fixtures/goldsrc, read in place: steamtest
// compares every .expected.json value with the family's decoders, and this
// package's decoders must give what those map them to.

func TestFixtures(t *testing.T) {
	dir := prototest.FixtureDir(t, "goldsrc")
	files := 0
	for _, f := range steamtest.Fixtures(t, dir) {
		files += len(f.Datagrams) + 1
		t.Run(f.Name, func(t *testing.T) {
			if _, split := f.JSON["fragments"]; split {
				eq(t, "split_layout", f.JSON["split_layout"], any("goldsrc"))
			}
			msg, dec := steamtest.CheckFixture(t, f)
			var got, want any
			var err error
			switch d := dec.(type) {
			case *steam.Info:
				var res *protocols.Result
				if res, err = decodeInfoReply(msg); err == nil {
					res.InfoFunc = nil
				}
				w := d.Result()
				w.Info, w.InfoFunc = w.InfoKV(), nil
				got, want = res, w
			case *steam.Players:
				got, err = decodePlayers(msg, nil)
				want = d.Result(0)
			case *steam.Rules:
				got, err = decodeRules(msg)
				want = d.Result()
			}
			prototest.NoError(t, err)
			eq(t, "decoded", got, want)
		})
	}
	// Every file of the folder is covered (35 at the time of writing).
	all, _ := filepath.Glob(filepath.Join(dir, "*"))
	if files != len(all) {
		t.Errorf("tests cover %d files, the folder holds %d", files, len(all))
	}
}

// TestQueryFixtures serves the real captures from a fake server: the Querier gets
// the same values as the decoders (0x6D + 0x49 pairs, 1-based player indexes,
// GoldSrc-split rules sent out of order).
func TestQueryFixtures(t *testing.T) {
	t.Parallel()
	read := func(name string) []byte { return prototest.Fixture(t, "goldsrc", name) }
	for _, tt := range []struct {
		server string
		info   []string // A2S_INFO answer, in order
		rules  []string
		nrules int
	}{
		{"cs16_renegade", []string{"goldsrc_info_m_cs16_renegade.bin", "goldsrc_info_I_cs16_renegade.bin"},
			[]string{"goldsrc_rules_cs16_renegade_split.frag1.bin", "goldsrc_rules_cs16_renegade_split.frag0.bin"}, 95},
		{"hl1_bloodygame", []string{"goldsrc_info_I_hl1_bloodygame.bin", "goldsrc_info_m_hl1_bloodygame.bin"},
			[]string{"goldsrc_rules_hl1_bloodygame.bin"}, 61},
		{"cscz", []string{"goldsrc_info_I_cscz.bin"},
			[]string{"goldsrc_rules_cscz_split.frag1.bin", "goldsrc_rules_cscz_split.frag0.bin", "goldsrc_rules_cscz_split.frag1.bin"}, 125},
	} {
		t.Run(tt.server, func(t *testing.T) {
			f := &fake{Players: one(read("goldsrc_player_" + tt.server + ".bin"))}
			for _, n := range tt.info {
				f.Info = append(f.Info, read(n))
			}
			for _, n := range tt.rules {
				f.Rules = append(f.Rules, read(n))
			}
			// The expected values come from the decoders, checked against the JSON above.
			want, err := decodeInfoReply(read(tt.info[len(tt.info)-1]))
			if in, _ := decodeInfoReply(read(tt.info[0])); in.Version != "" {
				want = in // the 0x49 wins whichever order it comes in
			}
			wantPl, err2 := decodePlayers(f.Players[0], nil)
			res, _, err3 := query(t, f.Start(t), protocols.Settings{Players: true, Rules: true}, answerDeadline)
			if err := errors.Join(err, err2, err3); err != nil {
				t.Fatal(err)
			}
			eq(t, "result", [7]any{res.Name, res.Map, res.Version, res.Players, res.MaxPlayers, len(res.Rules), len(res.PhaseErrors)},
				[7]any{want.Name, want.Map, want.Version, want.Players, want.MaxPlayers, tt.nrules, 0})
			eq(t, "player list", res.PlayerList, wantPl)
			checkKV(t, res.Info)
			// A 0x6D followed by a 0x49 leaves its own keys (address, mod) in Info.
			if _, ok := prototest.InfoOf(res)["address"]; ok != isDetailed(read(tt.info[0])) {
				t.Errorf("0x6D address in Info: %v", ok)
			}
		})
	}

	// The HLTV proxy's 0x6D, as an answer to the text query "details".
	f := &fake{Details: one(read("goldsrc_info_m_hltv_proxy.bin"))}
	res, _ := prototest.QueryOK(t, Protocol, f.Start(t), protocols.Settings{Players: true}, textDeadline)
	prototest.CheckProbe(t, res, nil, nil, `"Castle Mortimus:0" "op4_kbase" "HLTV" "" 0/1 bots ? pw 1 [] rules - info 13 partial []`)
}

func isDetailed(b []byte) bool { return len(b) > 4 && b[4] == 0x6D }
