package nadeo

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Bounds on what one answer may make the decoder hold.
const (
	maxMessage = 256 << 10 // bytes of one methodResponse (255 players take ~150 KiB)
	maxNodes   = 20000     // XML elements of one answer
	maxDepth   = 32        // element nesting
	maxPlayers = 255       // GetPlayerList's first argument
)

// node is one XML element of an answer: its name, its text, its children.
type node struct {
	name string
	text string
	kids []*node
}

// child returns the first child named name, or nil.
func (n *node) child(name string) *node {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// parseXML reads b into a tree, with the element count and depth capped. A
// declared encoding other than UTF-8 is read as bytes (wire.UTF8 converts the
// strings later).
func parseXML(b []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var (
		root  *node
		stack []*node
		count int
	)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: XML: %v", wire.ErrMalformed, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if count++; count > maxNodes {
				return nil, fmt.Errorf("%w: more than %d XML elements", wire.ErrTooLarge, maxNodes)
			}
			if len(stack) >= maxDepth {
				return nil, fmt.Errorf("%w: XML nested deeper than %d", wire.ErrTooLarge, maxDepth)
			}
			n := &node{name: t.Name.Local}
			if len(stack) == 0 {
				if root != nil {
					return nil, fmt.Errorf("%w: XML with two root elements", wire.ErrMalformed)
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("%w: no XML element in the answer", wire.ErrMalformed)
	}
	return root, nil
}

// fault is an XML-RPC fault answer.
type fault struct {
	Code   int64
	String string
}

func (f *fault) Error() string { return fmt.Sprintf("fault %d: %s", f.Code, f.String) }

// decodeResponse reads a methodResponse: its one value, or its fault (a *fault
// wrapped in wire.ErrServer).
func decodeResponse(b []byte) (*node, error) {
	root, err := parseXML(b)
	if err != nil {
		return nil, err
	}
	if root.name != "methodResponse" {
		return nil, fmt.Errorf("%w: XML root <%s>, want <methodResponse>", wire.ErrMalformed, root.name)
	}
	if f := root.child("fault"); f != nil {
		v := f.child("value")
		if v == nil {
			return nil, fmt.Errorf("%w: fault without a value", wire.ErrMalformed)
		}
		m := members(v)
		code, _ := strconv.ParseInt(scalar(m["faultCode"]), 10, 64)
		return nil, fmt.Errorf("%w: %w", wire.ErrServer, &fault{Code: code, String: clip(wire.UTF8([]byte(scalar(m["faultString"]))))})
	}
	v := root.child("params").child("param").child("value")
	if v == nil {
		return nil, fmt.Errorf("%w: methodResponse without params/param/value", wire.ErrMalformed)
	}
	return v, nil
}

// typed returns the type element of a <value> (its one child), or nil for an
// untyped value (a string by XML-RPC's rule).
func typed(v *node) *node {
	if v == nil || len(v.kids) == 0 {
		return nil
	}
	return v.kids[0]
}

// scalar returns the text of a scalar <value>: a string, int, boolean or double.
func scalar(v *node) string {
	if v == nil {
		return ""
	}
	if t := typed(v); t != nil {
		return strings.TrimSpace(t.text)
	}
	return v.text
}

// str returns a string value, converted to UTF-8 (TrackMania Forever declares
// UTF-8 but older servers may send Latin-1).
func str(v *node) string {
	if t := typed(v); t != nil {
		return wire.UTF8([]byte(t.text))
	}
	if v == nil {
		return ""
	}
	return wire.UTF8([]byte(v.text))
}

// integer returns an i4/int value, ok false when it is none.
func integer(v *node) (int64, bool) {
	t := typed(v)
	if t == nil || (t.name != "i4" && t.name != "int") {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t.text), 10, 32)
	return n, err == nil
}

// boolean returns a boolean value, ok false when it is none.
func boolean(v *node) (bool, bool) {
	t := typed(v)
	if t == nil || t.name != "boolean" {
		return false, false
	}
	switch strings.TrimSpace(t.text) {
	case "1":
		return true, true
	case "0":
		return false, true
	}
	return false, false
}

// members returns a struct value's members by name (nil for another value).
func members(v *node) map[string]*node {
	t := typed(v)
	if t == nil || t.name != "struct" {
		return nil
	}
	out := make(map[string]*node, len(t.kids))
	for _, m := range t.kids {
		if m.name != "member" {
			continue
		}
		if name := m.child("name"); name != nil {
			out[strings.TrimSpace(name.text)] = m.child("value")
		}
	}
	return out
}

// items returns an array value's values (ok false for another value).
func items(v *node) ([]*node, bool) {
	t := typed(v)
	if t == nil || t.name != "array" {
		return nil, false
	}
	return t.child("data").childrenNamed("value"), true
}

func (n *node) childrenNamed(name string) []*node {
	if n == nil {
		return nil
	}
	var out []*node
	for _, k := range n.kids {
		if k.name == name {
			out = append(out, k)
		}
	}
	return out
}

// clip shortens a peer's text quoted in an error.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

// methodCall builds an XML-RPC call of name with string and int parameters.
func methodCall(name string, params ...any) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><methodCall><methodName>`)
	b.WriteString(name)
	b.WriteString(`</methodName><params>`)
	for _, p := range params {
		b.WriteString(`<param><value>`)
		switch p := p.(type) {
		case string:
			b.WriteString(`<string>`)
			xml.EscapeText(&b, []byte(p))
			b.WriteString(`</string>`)
		case int:
			fmt.Fprintf(&b, `<i4>%d</i4>`, p)
		}
		b.WriteString(`</value></param>`)
	}
	b.WriteString(`</params></methodCall>`)
	return b.Bytes()
}

// stripColours removes Nadeo's $ formatting codes: $ and three hex digits (a
// colour), $ and one letter (style: $w $n $o $i $t $s $g $z $m ...), the link
// codes $l $h $p with their [target], and turns $$ into $.
func stripColours(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			break
		}
		c := s[i+1]
		switch {
		case c == '$':
			b.WriteByte('$')
			i++
		case isHex(c):
			i++
			for k := 0; k < 2 && i+1 < len(s) && isHex(s[i+1]); k++ {
				i++
			}
		case strings.IndexByte("lLhHpP", c) >= 0: // links: $l[target]text$l
			i++
			if i+1 < len(s) && s[i+1] == '[' {
				if end := strings.IndexByte(s[i+1:], ']'); end >= 0 {
					i += end + 1
				}
			}
		case c < 0x80:
			i++ // a style letter, or a code this reader does not know
		}
	}
	return b.String()
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// serverName reads GetServerName: a string, $ codes stripped.
func serverName(v *node, res *protocols.Result) error {
	if t := typed(v); t != nil && t.name != "string" {
		return fmt.Errorf("%w: GetServerName answered <%s>, not a string", wire.ErrMalformed, t.name)
	}
	res.Name = stripColours(str(v))
	return nil
}

// playerLimit reads GetMaxPlayers: a struct whose CurrentValue is the limit now.
func playerLimit(v *node, res *protocols.Result) error {
	m := members(v)
	if m == nil {
		return fmt.Errorf("%w: GetMaxPlayers answered no struct", wire.ErrMalformed)
	}
	n, ok := integer(m["CurrentValue"])
	if !ok || n < 0 {
		return fmt.Errorf("%w: GetMaxPlayers without a CurrentValue count", wire.ErrMalformed)
	}
	res.MaxPlayers = protocols.Known(n)
	return nil
}

// version reads GetVersion: Name (the game), Version, Build, and ManiaPlanet's
// TitleId and ApiVersion. It returns the Name.
func version(v *node, res *protocols.Result) (string, error) {
	m := members(v)
	if m == nil {
		return "", fmt.Errorf("%w: GetVersion answered no struct", wire.ErrMalformed)
	}
	name := str(m["Name"])
	res.Game = name
	if t := str(m["TitleId"]); t != "" {
		res.Game = t
	}
	res.Version = str(m["Version"])
	for _, k := range []string{"Name", "Build", "ApiVersion", "TitleId"} {
		if s := str(m[k]); s != "" {
			res.Info = append(res.Info, protocols.KV{Key: "version." + k, Value: s})
		}
	}
	return name, nil
}

// mapInfo reads GetCurrentMapInfo or GetCurrentChallengeInfo: the map's Name,
// UId and Environnement (Nadeo's spelling).
func mapInfo(v *node, res *protocols.Result) error {
	m := members(v)
	if m == nil {
		return fmt.Errorf("%w: map info is no struct", wire.ErrMalformed)
	}
	res.Map = stripColours(str(m["Name"]))
	for _, k := range []string{"UId", "Environnement", "Author"} {
		if s := str(m[k]); s != "" {
			res.Info = append(res.Info, protocols.KV{Key: "map." + k, Value: stripColours(s)})
		}
	}
	return nil
}

// playerList reads GetPlayerList: an array of PlayerInfo structs (Login,
// NickName, PlayerId, TeamId, ...). Nadeo servers have no bots.
func playerList(v *node) ([]protocols.Player, error) {
	list, ok := items(v)
	if !ok {
		return nil, fmt.Errorf("%w: GetPlayerList answered no array", wire.ErrMalformed)
	}
	if len(list) > maxPlayers {
		return nil, fmt.Errorf("%w: %d players, asked for at most %d", wire.ErrTooLarge, len(list), maxPlayers)
	}
	out := make([]protocols.Player, 0, len(list))
	for i, it := range list {
		m := members(it)
		if m == nil {
			return nil, fmt.Errorf("%w: player %d is no struct", wire.ErrMalformed, i)
		}
		name := str(m["NickName"])
		if name == "" {
			name = str(m["Login"])
		}
		p := protocols.Player{Name: stripColours(name)}
		if t, ok := integer(m["TeamId"]); ok && t >= 0 {
			p.Team = strconv.FormatInt(t, 10)
		}
		out = append(out, p)
	}
	return out, nil
}
