package minecraft

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/mctext"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// legacyPing is the 1.4-1.5 server list ping. Every server since beta 1.8
// answers it: beta-1.3 servers read the FE and ignore the 01, 1.4+ servers
// answer in the "§1" format. The 1.6 "MC|PingHost" extension adds nothing a
// status needs, and 1.7+ servers drop it when any of its fields is off.
//
// A constant, so that no code can alter the bytes every probe sends.
const legacyPing = "\xFE\x01"

// maxKickQuote caps how much of a non-status kick message an error quotes.
const maxKickQuote = 200

// decodeLegacyKick decodes the UTF-16BE text of a legacy kick packet (the bytes
// after 0xFF and the u16 length): "§1\0<protocol>\0<version>\0<motd>\0<online>\0<max>"
// (1.4+) or "<motd>§<online>§<max>" (beta 1.8-1.3). Any other text is a real
// kick ("Outdated server!", "Protocol error"): an error wrapping ErrServer that
// quotes it.
func decodeLegacyKick(b []byte) (status, error) {
	if len(b)%2 != 0 {
		return status{}, fmt.Errorf("%w: legacy kick text of %d bytes is not UTF-16", wire.ErrMalformed, len(b))
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = binary.BigEndian.Uint16(b[2*i:])
	}
	return parseLegacyText(string(utf16.Decode(units))) // lone surrogates become U+FFFD
}

func parseLegacyText(s string) (status, error) {
	if rest, ok := strings.CutPrefix(s, "§1\x00"); ok {
		f := strings.Split(rest, "\x00")
		if len(f) != 5 {
			return status{}, fmt.Errorf("%w: 1.4+ legacy reply has %d fields, want 6", wire.ErrMalformed, len(f)+1)
		}
		st := status{Format: formatLegacy14, VersionName: strings.TrimSpace(mctext.StripCodes(f[1])), MOTD: oneLine(mctext.StripCodes(f[2]))}
		proto, err := strconv.ParseInt(f[0], 10, 32)
		if err != nil {
			return status{}, fmt.Errorf("%w: 1.4+ legacy reply protocol %q", wire.ErrMalformed, f[0])
		}
		st.Protocol, st.HasProtocol = proto, true
		if st.Online, err = legacyCount("online", f[3]); err == nil {
			st.Max, err = legacyCount("max", f[4])
		}
		if err != nil {
			return status{}, err
		}
		return st, nil
	}
	// Beta: the MOTD cannot contain '§', but split on the last two so that a
	// server that lets one through still decodes.
	j := strings.LastIndex(s, "§")
	i := -1
	if j > 0 {
		i = strings.LastIndex(s[:j], "§")
	}
	if i >= 0 {
		online, err1 := legacyCount("online", s[i+len("§"):j])
		max, err2 := legacyCount("max", s[j+len("§"):])
		if err1 == nil && err2 == nil {
			return status{Format: formatLegacyBeta, MOTD: oneLine(mctext.StripCodes(s[:i])), Online: online, Max: max}, nil
		}
	}
	return status{}, fmt.Errorf("%w: kicked: %q", wire.ErrServer, quote(s))
}

// legacyCount parses a decimal player count of the legacy text.
func legacyCount(field, s string) (protocols.Count, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return protocols.Count{}, fmt.Errorf("%w: legacy reply %s count %q", wire.ErrMalformed, field, s)
	}
	return protocols.Known(v), nil
}

// quote shortens a kick message for an error message.
func quote(s string) string {
	if r := []rune(s); len(r) > maxKickQuote {
		return string(r[:maxKickQuote]) + "…"
	}
	return s
}
