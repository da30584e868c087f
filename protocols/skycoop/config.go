package skycoop

import (
	"fmt"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxConfigPlayers caps the player names kept from one config string.
const maxConfigPlayers = 1024

// config is the decoded config string.
type config struct {
	Players    []string
	HasPlayers bool   // a 'players' key was present (the list may be empty)
	Experience string // the difficulty: Pilgrim, Voyageur, Stalker, Interloper or Unknown
	PVP        string // C# bool.ToString(): True or False
	Other      []protocols.KV
}

// parseConfig reads the server's config string. It is built by concatenation with
// single quotes and no escaping, so it is not JSON:
//
//	{'players':['Alice','Bob'],'experience':'Voyageur','pvp':'True'}
//
// The scanner takes an object of keys to strings, arrays of strings or bare words;
// a string runs to the next quote of its own kind (single or double), with no
// escapes: names have their apostrophes removed and keep any \ or " raw.
func parseConfig(s string) (config, error) {
	var c config
	p := scanner{s: s}
	if err := p.expect('{'); err != nil {
		return c, err
	}
	for first := true; ; first = false {
		p.ws()
		if p.peek() == '}' {
			p.i++
			break
		}
		if !first {
			if err := p.expect(','); err != nil {
				return c, err
			}
			if p.ws(); p.peek() == '}' {
				continue // a trailing comma
			}
		}
		key, err := p.word()
		if err != nil {
			return c, err
		}
		if err := p.expect(':'); err != nil {
			return c, err
		}
		p.ws()
		if p.peek() == '[' {
			list, err := p.list()
			if err != nil {
				return c, err
			}
			if key == "players" {
				c.Players, c.HasPlayers = list, true
			} else {
				c.Other = append(c.Other, protocols.KV{Key: key, Value: strings.Join(list, ",")})
			}
			continue
		}
		v, err := p.word()
		if err != nil {
			return c, err
		}
		switch key {
		case "experience":
			c.Experience = v
		case "pvp":
			c.PVP = v
		default:
			c.Other = append(c.Other, protocols.KV{Key: key, Value: v})
		}
	}
	if p.ws(); p.i < len(s) {
		return c, fmt.Errorf("%w: config: text after the closing brace at character %d", wire.ErrMalformed, p.i)
	}
	return c, nil
}

type scanner struct {
	s string
	i int
}

func (p *scanner) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *scanner) ws() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *scanner) expect(c byte) error {
	p.ws()
	if p.peek() != c {
		if p.i >= len(p.s) {
			return fmt.Errorf("%w: config ends at character %d, want %q", wire.ErrTruncated, p.i, c)
		}
		return fmt.Errorf("%w: config character %d is %q, want %q", wire.ErrMalformed, p.i, p.s[p.i], c)
	}
	p.i++
	return nil
}

// word reads a quoted string or a bare word (true, 3, Stalker).
func (p *scanner) word() (string, error) {
	p.ws()
	start := p.i
	if q := p.peek(); q == '\'' || q == '"' {
		j := strings.IndexByte(p.s[p.i+1:], q)
		if j < 0 {
			return "", fmt.Errorf("%w: config string at character %d has no closing quote", wire.ErrTruncated, start)
		}
		p.i += j + 2
		return p.s[start+1 : p.i-1], nil
	}
	for p.i < len(p.s) && strings.IndexByte(",:{}[] \t\r\n'\"", p.s[p.i]) < 0 {
		p.i++
	}
	if p.i == start {
		if p.i >= len(p.s) {
			return "", fmt.Errorf("%w: config ends at character %d, want a value", wire.ErrTruncated, p.i)
		}
		return "", fmt.Errorf("%w: config character %d is %q, want a value", wire.ErrMalformed, p.i, p.s[p.i])
	}
	return p.s[start:p.i], nil
}

func (p *scanner) list() ([]string, error) {
	p.i++ // '['
	out := []string{}
	for first := true; ; first = false {
		p.ws()
		if p.peek() == ']' {
			p.i++
			return out, nil
		}
		if !first {
			if err := p.expect(','); err != nil {
				return nil, err
			}
			if p.ws(); p.peek() == ']' {
				continue // a trailing comma
			}
		}
		v, err := p.word()
		if err != nil {
			return nil, err
		}
		if len(out) < maxConfigPlayers {
			out = append(out, v)
		}
	}
}
