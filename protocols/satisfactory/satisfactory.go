// Package satisfactory queries Satisfactory dedicated servers (1.0 and later) with
// Coffee Stain's Lightweight Query API: one little-endian UDP datagram each way,
// reporting the server state, the build changelist, flags, change counters
// ("sub-states") and the server name. It reports no player counts (those need the
// authenticated HTTPS API). The pre-1.0 "FirstVersion" query of Update 5-8 servers
// (UDP 15777) is spoken when Options.Legacy is set, and recognised in any reply.
//
// Each query uses a fresh random cookie; replies carrying another cookie are skipped.
// When only such replies arrive before the deadline the query fails with ErrMismatch
// (not ErrTimeout): the host answers, but not this poll.
//
// Spec: ../shared/protocols/satisfactory.md (layout from Coffee Stain's FGDSQueryTypes.h;
// the errata of the commonly copied DedicatedServerAPIDocs.md are listed in its §5).
package satisfactory

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "satisfactory",
	Description: "Satisfactory dedicated server Lightweight Query API (state, changelist, sub-states, name; no player counts)",
	DefaultPort: 7777,
	Transport:   "udp",
	New:         New,
}

// Options is the module's `satisfactory:` block.
type Options struct {
	// Legacy sends the pre-1.0 query (10-byte poll, no magic) that Update 5-8
	// servers answer on UDP 15777; set the target's port to 15777 with it.
	Legacy bool `yaml:"legacy"`
}

// New builds the Querier for a module.
func New(s protocols.Settings) (protocols.Querier, error) {
	var opts Options
	if s.Options != nil {
		if err := s.Options(&opts); err != nil {
			return nil, fmt.Errorf("satisfactory options: %w", err)
		}
	}
	return &querier{retries: s.Retries, legacy: opts.Legacy}, nil
}
