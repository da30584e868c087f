// Package gamespy1 queries servers speaking GameSpy v1, the plain-text `\status\`
// protocol of most 1998-2004 titles (Unreal Tournament and the other Unreal engine 1
// games, Battlefield 1942, Medal of Honor: Allied Assault, Operation Flashpoint,
// Serious Sam, ...): one backslash-delimited request, a reply of one or more
// `\key\value` datagrams tied together by `\queryid\Q.P` and closed by `\final\`.
//
// Spec: ../shared/protocols/gamespy1.md. Targets name the query port, which is often
// not the game port (UT99 game+1 = 7778, BF1942 23000, MOHAA game+97 = 12300); the
// default, 7778, is the query port of the Unreal engine family.
package gamespy1

import (
	"fmt"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Protocol is the registry entry.
var Protocol = protocols.Protocol{
	Name:        "gamespy1",
	Description: "GameSpy v1 \\status\\ query (UT99 and Unreal engine 1 games, BF1942, MOHAA, OFP, Serious Sam, ...)",
	DefaultPort: 7778,
	Transport:   "udp",
	New:         build,
}

// Request modes of Options.Request.
const (
	requestStatus       = "status"       // \status\: everything in one reply
	requestXServerQuery = "xserverquery" // \status\xserverquery: UT99 XServerQuery add-on
	requestSeparate     = "separate"     // \basic\\info\, then \players\ and \rules\
)

// Options is the module's `gamespy1:` block.
type Options struct {
	// Request is "status" (default), "xserverquery" (what gamedig sends; plain
	// servers treat it as \status\) or "separate": one request per section, for
	// servers whose \status\ reply is too large or garbled, at the cost of more
	// round trips.
	Request string `yaml:"request"`
	// Encoding is the code page of the strings: "auto" (the default: UTF-8 when
	// valid, else Windows-1252) or one wire.Encoding names (windows-1251 for a
	// Cyrillic server).
	Encoding wire.CodePage `yaml:"encoding"`
}

// build builds the Querier for a module.
var build = protocols.WithOptions("gamespy1", func(s protocols.Settings, opts Options) (protocols.Querier, error) {
	q := &querier{players: s.Players, rules: s.Rules}
	switch opts.Request {
	case "", requestStatus:
		q.status = []byte(`\status\`)
	case requestXServerQuery:
		q.status = []byte(`\status\xserverquery`)
	case requestSeparate:
		q.separate = true
	default:
		return nil, fmt.Errorf("gamespy1 options: request: %q is not one of %q, %q, %q",
			opts.Request, requestStatus, requestXServerQuery, requestSeparate)
	}
	q.text = opts.Encoding.Or(nil)
	return protocols.OverUDP(s.Retries, q.query), nil
})
