# gameserver_exporter from source: built static in the Go image, shipped on an empty
# base image, running as nobody.
#   make docker        (= podman build $(scripts/ldflags.sh --build-args) -t IMAGE:VERSION .)
# The build stage pulls golang:1.26 and the Go modules (GOPROXY can be passed as a
# build arg); VERSION, REVISION, BRANCH and BUILD_DATE stamp the binary when given.
# Without VERSION, scripts/version.sh names it: the VERSION file's release, or
# VERSION+unreleased.REVISION for unreleased work (a plain `podman build .` of a
# checkout says unreleased).
FROM docker.io/library/golang:1.26 AS build
ARG GOPROXY
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION
ARG REVISION=unknown
ARG BRANCH=unknown
ARG BUILD_DATE
RUN CGO_ENABLED=0 go build -trimpath -ldflags "$(BUILD_USER=container sh scripts/ldflags.sh)" \
        -o /out/gameserver_exporter . && \
    /out/gameserver_exporter --config.check

FROM scratch
ARG VERSION
LABEL org.opencontainers.image.title="gameserver_exporter" \
      org.opencontainers.image.description="Prometheus exporter for game servers (multi-target, like blackbox_exporter)" \
      org.opencontainers.image.version="${VERSION:-unreleased}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.source="https://github.com/gameserver-exporter/gameserver_exporter"
COPY --from=build /out/gameserver_exporter /bin/gameserver_exporter
COPY --from=build /src/LICENSE /LICENSE
# The eos protocol asks Epic's web API over verified TLS: the image needs the CA roots.
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY examples/modules.yml /etc/gameserver_exporter/modules.yml
USER 65534:65534
EXPOSE 10115
ENTRYPOINT ["/bin/gameserver_exporter"]
