package prototest

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// ListNames is the names of res's player list, in order (nil for no list), for
// a slices.Equal against a vector's expected names.
func ListNames(res *protocols.Result) []string {
	var names []string
	for _, p := range res.PlayerList {
		names = append(names, p.Name)
	}
	return names
}
