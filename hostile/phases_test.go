package hostile

import (
	"encoding/binary"
	"net/netip"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/a2s"
)

// phaseModule asks for players and rules: the phases after the info reply.
const phaseModule = "modules:\n  a2s: {protocol: a2s, players: true, rules: true}\n"

// phaseCase is an A2S server that answers A2S_INFO properly and A2S_PLAYER and
// A2S_RULES with phase(t, p)(req): the probe succeeds on its info, reports the
// failed phases (when failed: both), and stays within its deadline and bounds.
func phaseCase(name string, fast, failed bool, phase func(t *testing.T, p protocols.Protocol) func(req []byte) [][]byte) hostileCase {
	c := hostileCase{name: name, fast: fast, module: phaseModule, want: per(map[string][]string{"a2s": {success}}),
		start: func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) { return answerPhases(t, phase(t, p)) }}
	if failed {
		c.failedPhases = []string{"players", "rules"}
	}
	return c
}

func always(ds ...[]byte) func(*testing.T, protocols.Protocol) func([]byte) [][]byte {
	return func(*testing.T, protocols.Protocol) func([]byte) [][]byte { return func([]byte) [][]byte { return ds } }
}

var phaseCases = []hostileCase{
	phaseCase("phases_silent", false, true, always()),
	// 255 players and 65535 rules announced, two and one sent: what is there is
	// read, nothing more is allocated or awaited.
	phaseCase("phases_lying_counts", true, false, func(*testing.T, protocols.Protocol) func([]byte) [][]byte {
		return func(req []byte) [][]byte {
			if req[4] == 0x55 {
				return [][]byte{append([]byte("\xFF\xFF\xFF\xFF\x44\xFF"),
					"\x00alice\x00\x05\x00\x00\x00\x00\x00\x80\x3F\x01bob\x00\x07\x00\x00\x00\x00\x00\x00\x40"...)}
			}
			return [][]byte{[]byte("\xFF\xFF\xFF\xFF\x45\xFF\xFFsv_cheats\x000\x00")}
		}
	}),
	phaseCase("phases_challenge_forever", true, true, func(_ *testing.T, p protocols.Protocol) func([]byte) [][]byte {
		r := seeded("phases_challenge/" + p.Name)
		return func([]byte) [][]byte { return [][]byte{a2sChallenge(r.Uint32())} }
	}),
	phaseCase("phases_split_255_of_3", true, true, always(announce(255, 3)...)),
	phaseCase("phases_bzip2_bomb", true, true, func(t *testing.T, _ protocols.Protocol) func([]byte) [][]byte {
		f := compressedFragment0(22, a2s.MaxDecompressed, bzip2Bomb(t))
		return func([]byte) [][]byte { return [][]byte{f} }
	}),
	// Random bytes behind the player and rules reply headers reach the decoders.
	phaseCase("phases_random", true, false, func(_ *testing.T, p protocols.Protocol) func([]byte) [][]byte {
		r := seeded("phases_random/" + p.Name)
		return func(req []byte) [][]byte {
			head := []byte{0xFF, 0xFF, 0xFF, 0xFF, req[4] - 0x55 + 0x44} // 0x44 players, 0x45 rules
			return [][]byte{append(head, randomBytes(r, 1+r.IntN(1200))...)}
		}
	}),
}

// answerPhases starts an A2S server answering A2S_INFO (0x54) with a valid reply
// and A2S_PLAYER (0x55) and A2S_RULES (0x56) with phase(req); nil is no answer.
func answerPhases(t *testing.T, phase func(req []byte) [][]byte) (netip.AddrPort, server) {
	return answerUDP(t, func(req []byte) [][]byte {
		if len(req) < 5 || binary.LittleEndian.Uint32(req) != 0xFFFFFFFF {
			return nil
		}
		switch req[4] {
		case 0x54:
			return [][]byte{a2sInfo()}
		case 0x55, 0x56:
			return phase(req)
		}
		return nil
	})
}

func TestHostilePhases(t *testing.T) { runCases(t, phaseCases) }
