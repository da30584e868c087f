// gameserver_exporter is a multi-target Prometheus exporter for game servers: Prometheus
// scrapes /probe?target=HOST:PORT&module=NAME and the exporter answers with the
// server's status, players and version, queried with the module's protocol.
package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kingpin/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	versioncollector "github.com/prometheus/client_golang/prometheus/collectors/version"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/promslog"
	promslogflag "github.com/prometheus/common/promslog/flag"
	"github.com/prometheus/common/version"
	toolkitweb "github.com/prometheus/exporter-toolkit/web"
	webflag "github.com/prometheus/exporter-toolkit/web/kingpinflag"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/discovery"
	"github.com/gameserver-exporter/gameserver_exporter/internal/buildinfo"
	"github.com/gameserver-exporter/gameserver_exporter/internal/cli"
	"github.com/gameserver-exporter/gameserver_exporter/internal/gcheadroom"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
	"github.com/gameserver-exporter/gameserver_exporter/web"
)

const exporterName = "gameserver_exporter"

// embeddedVersion is the VERSION file, for builds that ldflags did not stamp
// (internal/buildinfo).
//
//go:embed VERSION
var embeddedVersion string

func init() { buildinfo.Fill(embeddedVersion) }

// defaultListenAddress: 9100-9999 is fully taken in Prometheus' default port
// allocations; 10115 echoes blackbox_exporter's 9115.
const defaultListenAddress = ":10115"

func main() {
	if code, ok := runAsService(os.Args[1:]); ok {
		os.Exit(code)
	}
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int { return runUntil(args, nil) }

// runUntil runs the exporter until it fails or stop is closed (a Windows service's
// Stop request), then lets the requests in flight finish.
func runUntil(args []string, stop <-chan struct{}) int {
	app := kingpin.New(exporterName, "Prometheus exporter that probes game servers (Source A2S, Quake 3, Hytale, ...).")
	// The server's flags belong to serve, the default command, so that `query
	// --help` lists its own; they still work without naming serve.
	serve := app.Command("serve", "Serve /probe and /metrics (the default; `serve --help` lists its flags).").Default()
	var (
		configFile    = app.Flag("config.file", "Modules file (YAML). Without one, the built-in modules are used.").Default("").String()
		configCheck   = serve.Flag("config.check", "Validate the modules file and exit.").Bool()
		timeoutOffset = serve.Flag("timeout-offset", "Seconds subtracted from Prometheus' scrape timeout to leave time for the answer.").Default("0.5").Float64()
		maxConcurrent = serve.Flag("probe.max-concurrent", "Probes allowed in flight at once; past it a probe waits within its deadline, then fails as overloaded (0: no cap).").Default("4096").Int()
		maxWaiting    = serve.Flag("probe.max-waiting", "Probes allowed to wait for one of --probe.max-concurrent slots; past it a probe fails at once as overloaded.").Default("1024").Int()
		remoteDebug   = serve.Flag("web.enable-remote-debug", "Serve debug output (/probe?debug=true, /logs) to non-loopback callers too. Off by default: it shows what any service at a probed address sent.").Bool()
		minInterval   = serve.Flag("probe.min-interval", "Least time between two queries of one target by one module; scrapes in between get the last result (0 disables).").Default("1s").Duration()
		enableReload  = serve.Flag("web.enable-reload", "Reload the modules file on POST /-/reload (SIGHUP always reloads); --no-web.enable-reload answers 405.").Default("true").Bool()
		remoteReload  = serve.Flag("web.enable-remote-reload", "Take POST /-/reload from non-loopback callers too. Off by default: a reload drops what modules keep, such as sign-ins.").Bool()
		enablePprof   = serve.Flag("web.enable-pprof", "Serve Go's profiler under /debug/pprof/ (off by default: it exposes internals).").Bool()
		historyLimit  = serve.Flag("history.limit", "Recent successful probes kept for their debug logs (as many failures are kept besides); the status page keeps the last probe of twice as many targets, at least 1024.").Default("100").Int()
		gcHeadroom    = serve.Flag("runtime.gc-headroom", "Least heap growth between two garbage collections: a small heap is not collected every few hundred probes (0: plain GOGC; an explicit GOGC wins).").Default("16MiB").Bytes()
		webConfig     = webflag.AddFlags(serve, defaultListenAddress)
	)
	promslogConfig := &promslog.Config{}
	promslogflag.AddFlags(app, promslogConfig)
	app.Version(version.Print(exporterName))
	app.HelpFlag.Short('h')
	app.UsageTemplate(usageTemplate)
	qc := cli.AddQuery(app)
	cmd, err := app.Parse(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if cmd == qc.FullCommand() {
		return qc.Run(*configFile, os.Stdout, os.Stderr)
	}
	logger := promslog.New(promslogConfig)

	sc := config.NewSafeConfig(*configFile)
	if err := sc.Reload(); err != nil {
		for _, line := range strings.Split(err.Error(), "\n") { // every error, one a line
			logger.Error("Error loading config", "err", line)
		}
		return 1
	}
	for _, w := range sc.Get().Warnings {
		logger.Warn("Config warning", "warning", w)
	}
	if *configCheck {
		if *configFile == "" {
			logger.Info("No --config.file given: checked the built-in modules, which are ok", "modules", len(sc.Get().Modules))
		} else {
			logger.Info("Config file is ok, exiting...", "file", *configFile, "modules", len(sc.Get().Modules))
		}
		return 0
	}
	logger.Info("Starting "+exporterName, "version", version.Info(), "build_context", version.BuildContext())
	gcheadroom.Start(uint64(max(*gcHeadroom, 0)), logger)
	logger.Info("Loaded config", "modules", len(sc.Get().Modules))

	reg := prometheus.NewRegistry()
	reg.MustRegister(
		versioncollector.NewCollector(exporterName),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	self := collector.NewMetrics(reg)
	self.ReloadSuccess.Set(1)
	self.ReloadSeconds.SetToCurrentTime()

	// Discovery sources refresh in the background; a reload keeps the lists of
	// sources it does not change.
	lists := discovery.NewManager(logger)
	lists.Apply(sc.Get().Discovery)
	defer lists.Stop()
	reg.MustRegister(lists)
	master.SetCache(lists) // what protocol list reads

	reload := func(ctx context.Context) error { // SafeConfig serialises concurrent reloads
		if err := sc.ReloadContext(ctx); err != nil {
			self.ReloadSuccess.Set(0)
			return err
		}
		for _, w := range sc.Get().Warnings {
			logger.Warn("Config warning", "warning", w)
		}
		lists.Apply(sc.Get().Discovery) // the config in force now, whichever reload stored it
		self.ReloadSuccess.Set(1)
		self.ReloadSeconds.SetToCurrentTime()
		return nil
	}
	go func() {
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		for range hup {
			if err := reload(context.Background()); err != nil {
				logger.Error("Error reloading config", "err", err)
			} else {
				logger.Info("Reloaded config file")
			}
		}
	}()

	history := web.NewHistory(*historyLimit)
	probeHandler := &web.ProbeHandler{
		Runner: &collector.Runner{
			Config:        sc,
			Logger:        logger,
			Metrics:       self,
			TimeoutOffset: time.Duration(*timeoutOffset * float64(time.Second)),
			MaxConcurrent: *maxConcurrent,
			MaxWaiting:    *maxWaiting,
			MinInterval:   *minInterval,
			Lists:         lists,
		},
		History:     history,
		RemoteDebug: *remoteDebug,
	}
	mux := routes(sc, reg, probeHandler, history, reload, logger, web.PageOptions{Name: exporterName, RemoteDebug: *remoteDebug, Pprof: *enablePprof, HistoryLimit: *historyLimit, Reload: *enableReload, RemoteReload: *remoteReload, Sources: lists.Statuses}, lists)
	if *enablePprof {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		// They write after sampling for the seconds asked: no write deadline.
		mux.Handle("/debug/pprof/profile", web.Unbounded(http.HandlerFunc(pprof.Profile)))
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.Handle("/debug/pprof/trace", web.Unbounded(http.HandlerFunc(pprof.Trace)))
	}
	srv := web.NewServer(web.RefuseBodies(mux))
	web.ListenHosts(srv, *webConfig.WebListenAddresses) // names that call the exporter local (debug, reload)
	probeHandler.Parking = web.NewParking(web.DefaultParkAbove, srv)
	if stop != nil {
		go func() {
			<-stop
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			srv.Shutdown(ctx)
		}()
	}
	if err := listenAndServe(srv, webConfig, probeHandler, logger); err != nil && !errors.Is(err, http.ErrServerClosed) {
		if errors.Is(err, syscall.EADDRINUSE) {
			logger.Error("Error starting HTTP server: another process listens there; give a free address with --web.listen-address=:PORT (make run PORT=...)", "err", err)
			return 1
		}
		logger.Error("Error starting HTTP server", "err", err)
		return 1
	}
	return 0
}

// usageTemplate is kingpin's, with the default command's flags (serve's: the
// server's, which a first run looks for) in the top-level --help too.
var usageTemplate = strings.Replace(kingpin.DefaultUsageTemplate, "{{else if .App.Commands -}}\nCommands:",
	"{{else if .App.Commands -}}\n{{range .App.Commands}}{{if .Default}}Flags of {{.Name}}, the default command:\n"+
		"{{.Flags|FlagsToTwoColumns|FormatTwoColumns}}\n{{end}}{{end -}}\nCommands:", 1)

func routes(sc *config.SafeConfig, reg *prometheus.Registry, probeHandler http.Handler, history *web.History,
	reload func(context.Context) error, logger *slog.Logger, page web.PageOptions, lists *discovery.Manager) *http.ServeMux {
	mux := http.NewServeMux()
	// The pages take turns (web.Pages): a crowd of callers cannot add up their
	// renders. /probe has its own limits (--probe.max-concurrent).
	pages := web.NewPages(web.DefaultPageLimit, web.DefaultPageWait)
	mux.Handle("/metrics", pages.Limit(promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})))
	mux.Handle("/probe", probeHandler)
	// /sd's turns are its own, held while an answer is written (web.Pages.Hold).
	mux.Handle("/sd", web.NewPages(web.DefaultSDLimit, web.DefaultSDWait).Hold(lists.SDHandler()))
	mux.Handle("/logs", pages.Limit(history.DebugHandler(page.RemoteDebug)))
	mux.HandleFunc("/-/healthy", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "Healthy") })
	mux.HandleFunc("/-/ready", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "Ready") })
	mux.Handle("/-/reload", web.ReloadHandler(reload, logger, page.Reload, page.RemoteReload))
	mux.Handle("/config", pages.Limit(web.ConfigHandler(sc)))
	modules := web.ModulesHandler(sc)
	mux.Handle("/modules", pages.Limit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		modules.ServeHTTP(w, r)
		lists.WriteSources(w) // live, unlike the modules' cached table
	})))
	status := pages.Limit(web.StatusPage(sc, history, page))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		status.ServeHTTP(w, r)
	})
	return mux
}

// listenAndServe is exporter-toolkit's ListenAndServe, with plain-HTTP probe
// requests answered by a web.FastListener in front of net/http when there is no
// web config file (TLS and basic auth are the toolkit's) and the addresses are
// TCP ones (not systemd's sockets, not vsock).
func listenAndServe(srv *http.Server, flags *toolkitweb.FlagConfig, h *web.ProbeHandler, logger *slog.Logger) error {
	plain := flags.WebConfigFile == nil || *flags.WebConfigFile == ""
	if flags.WebSystemdSocket != nil && *flags.WebSystemdSocket {
		plain = false
	}
	for _, a := range *flags.WebListenAddresses {
		if strings.HasPrefix(a, "vsock://") {
			plain = false
		}
	}
	if !plain {
		return toolkitweb.ListenAndServe(srv, flags, logger)
	}
	listeners := make([]net.Listener, 0, len(*flags.WebListenAddresses))
	for _, a := range *flags.WebListenAddresses {
		l, err := net.Listen("tcp", a)
		if err != nil {
			return err
		}
		defer l.Close()
		listeners = append(listeners, web.NewFastListener(l, h))
	}
	return toolkitweb.ServeMultiple(listeners, srv, flags, logger)
}
