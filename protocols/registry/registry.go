// Package registry lists every protocol the exporter speaks. It is the only place
// outside a protocol's own package that names protocols: an explicit list, no init()
// side effects, so what is compiled in is what is listed here.
package registry

import (
	"sort"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/a2s"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/armagetron"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/ase"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/assettocorsa"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/bedrock"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/buildandshoot"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/cs2d"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/cube2"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/darkplaces"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/discord"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/doom3"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/eco"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/eldewrito"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/eos"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/farmingsimulator"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/ffow"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/fivem"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/frostbite"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/gamespy1"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/gamespy2"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/gamespy3"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/gamespy4"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/goldsrc"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/hawakening"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/hexen2"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/hytale"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/kspdmp"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/list"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/mafia2mp"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/minecraft"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/mumble"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/nadeo"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/openttd"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/palworld"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/quake2"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/quake3"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/quakeworld"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/rfactor"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/samp"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/satisfactory"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/savage"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/savage2"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/scpsl"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/skycoop"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/soldat"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/starmade"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/teamspeak2"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/teamspeak3"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/teeworlds"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/terraria"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/tribes1"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/unreal2"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/ventrilo"
)

var all = []protocols.Protocol{
	a2s.Protocol,
	armagetron.Protocol,
	ase.Protocol,
	assettocorsa.Protocol,
	bedrock.Protocol,
	buildandshoot.Protocol,
	cs2d.Protocol,
	cube2.Protocol,
	darkplaces.Protocol,
	discord.Protocol,
	doom3.Protocol,
	frostbite.Protocol,
	eco.Protocol,
	eldewrito.Protocol,
	eos.Protocol,
	farmingsimulator.Protocol,
	ffow.Protocol,
	fivem.Protocol,
	gamespy1.Protocol,
	gamespy2.Protocol,
	gamespy3.Protocol,
	gamespy4.Protocol,
	goldsrc.Protocol,
	hawakening.Protocol,
	hexen2.Protocol,
	hytale.Protocol,
	kspdmp.Protocol,
	list.Protocol,
	mafia2mp.Protocol,
	minecraft.Protocol,
	quake2.Protocol,
	mumble.Protocol,
	nadeo.Protocol,
	openttd.Protocol,
	palworld.Protocol,
	quake3.Protocol,
	quakeworld.Protocol,
	rfactor.Protocol,
	samp.Protocol,
	satisfactory.Protocol,
	savage.Protocol,
	savage2.Protocol,
	scpsl.Protocol,
	skycoop.Protocol,
	soldat.Protocol,
	starmade.Protocol,
	teamspeak2.Protocol,
	teamspeak3.Protocol,
	teeworlds.Protocol,
	tribes1.Protocol,
	unreal2.Protocol,
	ventrilo.Protocol,
	terraria.Protocol,
}

var byName = func() map[string]protocols.Protocol {
	m := make(map[string]protocols.Protocol, len(all))
	for _, p := range all {
		m[p.Name] = p
	}
	return m
}()

// Lookup returns the protocol called name.
func Lookup(name string) (protocols.Protocol, bool) {
	p, ok := byName[name]
	return p, ok
}

// All returns every protocol, sorted by name.
func All() []protocols.Protocol {
	out := append([]protocols.Protocol(nil), all...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
