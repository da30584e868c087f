// Package teamspeak3 asks a TeamSpeak 3 (or TeaSpeak) server for the status of one
// virtual server over ServerQuery, the server's plain-text TCP admin interface.
//
// The exchange, anonymous (guest query group): the server greets with "TS3" and a
// welcome line; the client selects the virtual server by its voice port with
// `use port=<voice port>`, asks `serverinfo`, with players `clientlist` (one line,
// its entries separated by '|': client_nickname and client_type, 1 for query
// clients), and leaves with `quit`. Every command is
// answered by zero or more data lines and then `error id=<n> msg=<text>`, id 0 meaning
// success. Data lines are space-separated key=value pairs whose values escape space,
// pipe, slash, backslash and control characters (\s \p \/ \\ \n ...). The server ends
// its lines with "\n\r".
//
// Targets name the voice port (9987 by default), the port players connect to; the
// query port (10011 by default) is the `query_port` option of the module's
// `teamspeak3:` block, on the same address. One query port serves every virtual
// server of the instance, which is why the target names the voice port.
//
// Facts: the TeamSpeak 3 Server Query manual (command syntax, escaping, error ids:
// 3329 and 3331 are the flood bans of an address that is not whitelisted).
package teamspeak3

import (
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// defaultQueryPort is the ServerQuery port of a default TeamSpeak 3 install.
const defaultQueryPort = 10011

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "teamspeak3",
	Description: "TeamSpeak 3 / TeaSpeak ServerQuery (TCP, query port 10011, target names the voice port)",
	DefaultPort: 9987,
	Transport:   "tcp",
	New:         newQuerier,
}

// Options is the module's `teamspeak3:` block.
type Options struct {
	// QueryPort is the ServerQuery TCP port on the target's address; 0 means 10011.
	QueryPort int `yaml:"query_port"`
}

var newQuerier = protocols.WithOptions("teamspeak3", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	port, err := protocols.Uint16Option("teamspeak3", "query_port", opts.QueryPort, defaultQueryPort)
	if err != nil {
		return nil, err
	}
	return &querier{queryPort: port, players: s.Players}, nil
})
