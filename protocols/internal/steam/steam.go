// Package steam holds what the Valve query packages (a2s and goldsrc) share: the
// binary records of A2S (S2A_INFO_SRC 0x49, the GoldSrc S2A_INFO_DETAILED 0x6D,
// S2A_PLAYER 0x44, S2A_RULES 0x45, S2C_CHALLENGE 0x41) with their mapping onto the
// exporter's Result, the split reply reassembler (Source and GoldSrc layouts,
// bzip2), and the request/reply exchange with its challenge flow.
//
// Spec: shared/protocols/a2s.md (and goldsrc.md for the text words goldsrc adds).
package steam

// Message type bytes (spec §2).
const (
	TypeChallenge    = 0x41 // S2C_CHALLENGE
	TypeInfo         = 0x49 // S2A_INFO_SRC
	TypeInfoDetailed = 0x6D // S2A_INFO_DETAILED, obsolete GoldSrc
	TypePlayers      = 0x44 // S2A_PLAYER
	TypeRules        = 0x45 // S2A_RULES
)

// Steam AppIDs whose replies the shared code reads in their own way.
const (
	AppIDCSGO             = 730     // may list a "Max Players" placeholder among its players
	AppIDTheShip          = 2400    // the only game whose replies carry extra fields (spec §4, §6)
	AppIDRust             = 252490  // keywords carry the real player counts
	AppIDDayZ             = 221100  // keywords carry the login queue
	AppIDDayZExperimental = 1024020 // likewise
)

// IsDayZ reports a DayZ AppID (stable or experimental).
func IsDayZ(appID uint32) bool { return appID == AppIDDayZ || appID == AppIDDayZExperimental }

// Requests (spec §3), built once. The trace keeps sent packets by reference, which
// is safe because nothing ever writes to them.
var (
	InfoRequest    = []byte("\xFF\xFF\xFF\xFFTSource Engine Query\x00")
	PlayersRequest = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x55, 0xFF, 0xFF, 0xFF, 0xFF} // challenge -1 asks for one
	RulesRequest   = []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x56, 0xFF, 0xFF, 0xFF, 0xFF}
)
