// Package nadeo asks a Nadeo game server (TrackMania Nations and United Forever,
// ManiaPlanet's TrackMania 2 and ShootMania, Trackmania 2020) for its status over
// its XML-RPC control port, GbxRemote (TCP 5000 by default).
//
// Framing: on connect the server sends a uint32 (little-endian) length and
// "GBXRemote 2" (or "GBXRemote 1", the old framing without handles). Each call
// is a uint32 length, a uint32 handle (from 0x80000000 up) and an XML-RPC
// methodCall; the answer has the same header with the call's handle (a handle
// below 0x80000000 is a callback, skipped) and a methodResponse (params, or a
// fault with faultCode and faultString). Version 1 has no handle.
//
// The calls, on one connection: Authenticate(login, password) (phase "login";
// the User level suffices, and the dedicated server's default User password is
// "User", which is what qstat sends when none is given), GetServerName,
// GetMaxPlayers, GetVersion (game, version, build), the current map
// (GetCurrentMapInfo, GetCurrentChallengeInfo on the pre-ManiaPlanet games whose
// GetVersion name begins "Tm") (phase "info"), then GetPlayerList(255, 0)
// (phase "players": the player count is its length, as qstat and gamedig take
// it). GetServerOptions (qstat's and gamedig's call, which also says whether
// the server has a password) is not asked: to an Admin login it answers with the
// passwords themselves, which the probe's trace would keep.
//
// Facts: qstat 2.17 tm.c (handshake, handle, Authenticate with User/User,
// GetServerOptions, GetCurrentChallengeInfo, GetPlayerList), gamedig 5.3
// protocols/nadeo.js (the same calls, GetVersion, the "No password" value, the
// $ colour codes), the dedicated server's XML-RPC method list.
package nadeo

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Protocol is the registry entry. Targets name the XML-RPC port (5000 by
// default; the game port is 2350).
var Protocol = protocols.Protocol{
	Name:        "nadeo",
	Description: "Nadeo GbxRemote XML-RPC (TrackMania Forever, TrackMania 2, ShootMania), TCP 5000",
	DefaultPort: 5000,
	Transport:   "tcp",
	New:         newQuerier,
}

// Options is the module's `nadeo:` block: the XML-RPC account to log in with.
type Options struct {
	// Login is the account (User, Admin or SuperAdmin; default User).
	Login string `yaml:"login"`
	// Password is its password (default "User", the dedicated server's default
	// for the User account); PasswordFile names a file holding it.
	Password     protocols.Secret `yaml:"password"`
	PasswordFile string           `yaml:"password_file"`
}

// Defaults of the dedicated server's configuration (dedicated_cfg.txt).
const (
	defaultLogin    = "User"
	defaultPassword = "User"
)

var newQuerier = protocols.WithOptions("nadeo", func(s protocols.Settings, o Options) (protocols.Querier, error) {
	pw, err := protocols.LoadSecret(o.Password, o.PasswordFile)
	if err != nil {
		return nil, fmt.Errorf("nadeo password: %w", err)
	}
	if pw == "" {
		pw = defaultPassword
	}
	if o.Login == "" {
		o.Login = defaultLogin
	}
	if len(o.Login) > 256 {
		return nil, fmt.Errorf("nadeo login: longer than 256 bytes")
	}
	return &querier{login: o.Login, password: pw, players: s.Players}, nil
})
