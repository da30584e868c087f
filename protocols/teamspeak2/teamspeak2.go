// Package teamspeak2 asks a TeamSpeak 2 server for the status of one virtual
// server over its TCP query port (51234 by default), a plain-text interface
// open without a login.
//
// The exchange: the server greets with "[TS]"; the client selects the virtual
// server by its voice port with `sel <voice port>` (answered "OK", or "ERROR,
// invalid id" when no server has that port), asks `si` (server info: key=value
// lines such as server_name, server_password, server_maxusers,
// server_currentusers, then "OK") and, for the players, `pl` (a header line of
// tab-separated column names, p_id c_id ps bs pr br pl ping logintime idletime
// cprivs pprivs pflags ip nick loginname, a tab-separated row per player with the
// strings quoted, then "OK"), and leaves with `quit`. Lines end with "\r\n".
//
// Targets name the voice port (UDP 8767 by default), the port players connect to;
// the query port is the `query_port` option of the module's `teamspeak2:` block,
// on the same address: one query port serves every virtual server of the
// instance.
//
// Facts: the TCP query as qstat 2.17 (ts2.c), gamedig (teamspeak2.js) and the
// long-lived "TeamSpeak Display" PHP class speak it; the columns of `pl` are
// read by name from its header line. Strings are the bytes the Windows clients
// typed: UTF-8 when valid, else Windows-1252.
package teamspeak2

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// defaultQueryPort is the TCP query port of a default TeamSpeak 2 install.
const defaultQueryPort = 51234

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "teamspeak2",
	Description: "TeamSpeak 2 TCP query (query port 51234, target names the voice port)",
	DefaultPort: 8767,
	Transport:   "tcp",
	New:         newQuerier,
}

// Options is the module's `teamspeak2:` block.
type Options struct {
	// QueryPort is the TCP query port on the target's address; 0 means 51234.
	QueryPort int `yaml:"query_port"`
	// Encoding is the code page of names: "auto" (the default: UTF-8 when
	// valid, else Windows-1252, what the Windows clients type), or one
	// wire.Encoding names.
	Encoding wire.CodePage `yaml:"encoding"`
}

var newQuerier = protocols.WithOptions("teamspeak2", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	port, err := protocols.Uint16Option("teamspeak2", "query_port", opts.QueryPort, defaultQueryPort)
	if err != nil {
		return nil, err
	}
	text := opts.Encoding.Or(wire.UTF8)
	return &querier{queryPort: port, players: s.Players, rules: s.Rules, text: text}, nil
})
