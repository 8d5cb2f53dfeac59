# gpuscout as a service: a static binary on a distroless base, run as a
# non-root user, with the embedded catalog compiled in.
#
#   make image                      # docker build -t gpuscout:dev .
#   docker run --rm -p 8080:8080 gpuscout:dev
#
# Serving a shared price snapshot (see deploy/ and README "Run it for your team"):
#   docker run -v /srv/gpuscout:/snapshot:ro -p 8080:8080 gpuscout:dev \
#     serve --addr 0.0.0.0:8080 --db /snapshot/gpuscout.db --db-read-only --watch 30s

# The build image's Go is go.mod's (deploy/validate's TestImageGoMatchesGoMod
# holds them equal): an older one would fetch a newer toolchain, which an
# offline build cannot, and GOTOOLCHAIN=local makes that a clear error.
# Pin the images by digest for a reproducible build (deploy/README.md):
#   docker build --build-arg GO_IMAGE=golang:1.26.8-bookworm@sha256:… \
#     --build-arg BASE_IMAGE=gcr.io/distroless/static-debian12:nonroot@sha256:… .
ARG GO_IMAGE=golang:1.26.8-bookworm
ARG BASE_IMAGE=gcr.io/distroless/static-debian12:nonroot

FROM ${GO_IMAGE} AS build
ENV GOTOOLCHAIN=local
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /out/gpuscout ./cmd/gpuscout \
 && /out/gpuscout version >/dev/null

FROM ${BASE_IMAGE}
COPY --from=build /out/gpuscout /gpuscout
USER 65532:65532
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["/gpuscout", "health", "--addr", "127.0.0.1:8080"]
ENTRYPOINT ["/gpuscout"]
CMD ["serve", "--addr", "0.0.0.0:8080"]
