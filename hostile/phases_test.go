package hostile

import (
	"encoding/binary"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// phaseModule asks for players and rules: the phases after the info reply.
const phaseModule = "modules:\n  a2s: {protocol: a2s, players: true, rules: true}\n"

// phaseCase is an A2S server that answers A2S_INFO properly and A2S_PLAYER and
// A2S_RULES with phase(t, p)(req): the probe succeeds on its info, reports the
// failed phases (when failed: both), and stays within its deadline and bounds.
func phaseCase(name string, fast, failed bool, phase replier) hostileCase {
	c := hostileCase{name: name, fast: fast, module: phaseModule, want: per(map[string][]string{"a2s": {success}}), replies: phases(phase)}
	if failed {
		c.failedPhases = []string{"players", "rules"}
	}
	return c
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
	phaseCase("phases_challenge_forever", true, true, challenges("phases_challenge/")),
	phaseCase("phases_split_255_of_3", true, true, always(announce(255, 3)...)),
	phaseCase("phases_bzip2_bomb", true, true, bzip2Bombs(22)),
	// Random bytes behind the player and rules reply headers reach the decoders.
	phaseCase("phases_random", true, false, func(_ *testing.T, p protocols.Protocol) func([]byte) [][]byte {
		r := seeded("phases_random/" + p.Name)
		return func(req []byte) [][]byte {
			head := []byte{0xFF, 0xFF, 0xFF, 0xFF, req[4] - 0x55 + 0x44} // 0x44 players, 0x45 rules
			return [][]byte{append(head, randomBytes(r, 1+r.IntN(1200))...)}
		}
	}),
}

// phases answers A2S_INFO (0x54) with a valid reply and A2S_PLAYER (0x55) and
// A2S_RULES (0x56) as phase does; nil is no answer.
func phases(phase replier) replier {
	return func(t *testing.T, p protocols.Protocol) func([]byte) [][]byte {
		ph := phase(t, p)
		return func(req []byte) [][]byte {
			if len(req) < 5 || binary.LittleEndian.Uint32(req) != 0xFFFFFFFF {
				return nil
			}
			switch req[4] {
			case 0x54:
				return [][]byte{a2sInfo()}
			case 0x55, 0x56:
				return ph(req)
			}
			return nil
		}
	}
}

func TestHostilePhases(t *testing.T) { runCases(t, phaseCases) }
