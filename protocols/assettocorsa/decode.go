package assettocorsa

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// maxCars caps the entry list (a server has at most a few dozen slots).
const maxCars = 512

type info struct {
	Name       *string  `json:"name"`
	Track      string   `json:"track"`
	Pass       *bool    `json:"pass"`
	Clients    *int64   `json:"clients"`
	MaxClients *int64   `json:"maxclients"`
	PoweredBy  string   `json:"poweredBy"`
	Port       int64    `json:"port"`
	TCPPort    int64    `json:"tport"`
	HTTPPort   int64    `json:"cport"`
	Session    *int64   `json:"session"`
	TimeLeft   *int64   `json:"timeleft"`
	Cars       []string `json:"cars"`
}

type car struct {
	Model        string `json:"Model"`
	Skin         string `json:"Skin"`
	DriverName   string `json:"DriverName"`
	DriverTeam   string `json:"DriverTeam"`
	DriverNation string `json:"DriverNation"`
	IsConnected  bool   `json:"IsConnected"`
}

type entryList struct {
	Cars *[]car `json:"Cars"`
}

func decodeInfo(b []byte) (*info, error) {
	var in info
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("%w: JSON: %v", wire.ErrMalformed, err)
	}
	if in.Name == nil || in.MaxClients == nil {
		return nil, fmt.Errorf("%w: no name or maxclients: not an Assetto Corsa /INFO", wire.ErrMalformed)
	}
	return &in, nil
}

func decodeCars(b []byte) ([]car, error) {
	var l entryList
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("%w: JSON: %v", wire.ErrMalformed, err)
	}
	if l.Cars == nil {
		return nil, fmt.Errorf("%w: no Cars: not an Assetto Corsa entry list", wire.ErrMalformed)
	}
	return (*l.Cars)[:min(len(*l.Cars), maxCars)], nil
}

func (in *info) result() *protocols.Result {
	res := &protocols.Result{
		Name:       *in.Name,
		Map:        in.Track,
		Version:    in.PoweredBy,
		Players:    protocols.CountOf(in.Clients),
		MaxPlayers: protocols.CountOf(in.MaxClients),
	}
	if in.Pass != nil {
		res.Password = protocols.FlagOf(*in.Pass)
	}
	kv := func(k, v string) protocols.KV { return protocols.KV{Key: k, Value: v} }
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	res.Info = []protocols.KV{kv("port", i(in.Port)), kv("tcp_port", i(in.TCPPort)), kv("http_port", i(in.HTTPPort)),
		kv("cars", strings.Join(in.Cars, ","))}
	if in.Session != nil {
		res.Info = append(res.Info, kv("session", i(*in.Session)))
	}
	if in.TimeLeft != nil {
		res.Info = append(res.Info, kv("time_left", i(*in.TimeLeft)))
	}
	return res
}

// players lists the connected drivers, their car as the team when they race for none.
func players(cars []car) []protocols.Player {
	out := []protocols.Player{}
	for _, c := range cars {
		if !c.IsConnected {
			continue
		}
		team := c.DriverTeam
		if team == "" {
			team = c.Model
		}
		out = append(out, protocols.Player{Name: c.DriverName, Team: team})
	}
	return out
}
