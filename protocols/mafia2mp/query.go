package mafia2mp

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// querier sends the mod's tag and decodes the reply that repeats it: its
// UDPExchange, built in newQuerier, whose decoder reads names with text.
type querier struct {
	protocols.UDPExchange[*reply]
	text func([]byte) string // the server's code page
}
