package farmingsimulator

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Caps on what is kept of the lists (the body is capped too).
const (
	maxPlayers = 1024
	maxMods    = 4096
)

type player struct {
	IsUsed  string `xml:"isUsed,attr"`
	IsAdmin string `xml:"isAdmin,attr"`
	Uptime  string `xml:"uptime,attr"` // minutes
	Name    string `xml:",chardata"`
}

type mod struct {
	Name    string `xml:"name,attr"`
	Author  string `xml:"author,attr"`
	Version string `xml:"version,attr"`
	Title   string `xml:",chardata"`
}

type server struct {
	XMLName xml.Name `xml:"Server"`
	Game    string   `xml:"game,attr"`
	Version string   `xml:"version,attr"`
	Name    string   `xml:"name,attr"`
	MapName string   `xml:"mapName,attr"`
	DayTime string   `xml:"dayTime,attr"`
	MapSize string   `xml:"mapSize,attr"`
	Slots   *struct {
		Capacity string   `xml:"capacity,attr"`
		NumUsed  string   `xml:"numUsed,attr"`
		Players  []player `xml:"Player"`
	} `xml:"Slots"`
	Mods []mod `xml:"Mods>Mod"`
}

// decode parses the feed. A document without Server and Slots is not the feed
// (another page, or the answer to a wrong code).
func decode(b []byte) (*server, error) {
	var s server
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	if err := d.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: XML: %v", wire.ErrMalformed, err)
	}
	if s.Slots == nil {
		return nil, fmt.Errorf("%w: no Slots element: not the dedicated server stats feed (a wrong code gets none)", wire.ErrMalformed)
	}
	return &s, nil
}

func (s *server) result(players bool) *protocols.Result {
	res := &protocols.Result{
		Game:       s.Game,
		Name:       s.Name,
		Map:        s.MapName,
		Version:    s.Version,
		Players:    protocols.ParseCount(s.Slots.NumUsed),
		MaxPlayers: protocols.ParseCount(s.Slots.Capacity),
		Modded:     protocols.FlagOf(len(s.Mods) > 0),
		Mods:       []protocols.Mod{},
	}
	for _, m := range s.Mods[:min(len(s.Mods), maxMods)] {
		title := strings.TrimSpace(m.Title)
		if title == "" {
			title = m.Name
		}
		res.Mods = append(res.Mods, protocols.Mod{Name: title, ID: m.Name})
	}
	res.Info = []protocols.KV{{Key: "day_time", Value: s.DayTime}, {Key: "map_size", Value: s.MapSize}, {Key: "mods", Value: strconv.Itoa(len(s.Mods))}}
	if players {
		for _, p := range s.Slots.Players {
			if p.IsUsed != "true" || len(res.PlayerList) >= maxPlayers {
				continue
			}
			pl := protocols.Player{Name: strings.TrimSpace(p.Name)}
			if m, err := strconv.ParseFloat(p.Uptime, 64); err == nil && m >= 0 && m < 1e9 {
				pl.Duration, pl.DurationKnown = m*60, true
			}
			res.PlayerList = append(res.PlayerList, pl)
		}
	}
	return res
}
