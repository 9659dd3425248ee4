# BenchWeb in a container: the dashboard and its job server, or an agent only (BenchWeb__Agent__Role), listening on
# plain http 8080 as non-root user `app`; put TLS in front of it (App Service, a reverse proxy).
#   docker build -t benchweb .
#   docker run -p 8080:8080 -v benchweb-data:/data benchweb          # then open the sign-in link it prints
# A headless run works too, with the profile mounted and its result written to the data volume:
#   docker run --rm -v "$PWD/samples:/samples:ro" -v benchweb-data:/data benchweb \
#     run /samples/simulated-quickstart.json --summary /data/quickstart.summary.json

# --- build: the SDK, plus Node.js for the browser libraries the app serves itself (Chart.js, the SignalR client) ---
FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
# BenchWeb/build/BrowserAssets.targets runs `npm ci` in BenchWeb/ during the build; the SDK image has no Node.js.
RUN apt-get update \
    && apt-get install -y --no-install-recommends nodejs npm \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src

# Restore first, from the project files alone, so that a change to the code reuses the restored packages' layer.
# The csproj imports build/BrowserAssets.targets, so it is needed to evaluate the project.
COPY global.json Directory.Build.props Directory.Packages.props ./
COPY BenchEngine/BenchEngine.csproj BenchEngine/
COPY BenchWeb/BenchWeb.csproj BenchWeb/
COPY BenchWeb/build/ BenchWeb/build/
RUN dotnet restore BenchWeb/BenchWeb.csproj

# The npm packages, pinned by the lock file, in a layer of their own. The build's `npm ci` step then finds them
# current (node_modules/.package-lock.json newer than package-lock.json) and skips; run again, it installs the same.
COPY BenchWeb/package.json BenchWeb/package-lock.json BenchWeb/
RUN cd BenchWeb && npm ci --no-audit --no-fund --loglevel=error

# The house rules the build enforces: the code style and the banned wall clock.
COPY .editorconfig BannedSymbols.txt ./
COPY BenchEngine/ BenchEngine/
COPY BenchWeb/ BenchWeb/
RUN dotnet publish BenchWeb/BenchWeb.csproj -c Release --no-restore -o /app

# --- runtime: ASP.NET Core only (Ubuntu), as the image's non-root user ---
FROM mcr.microsoft.com/dotnet/aspnet:10.0 AS runtime
# The image sets ASPNETCORE_HTTP_PORTS=8080 already; stated here because the compose file and the docs rely on it.
# The data folder holds the SQLite database, the Data Protection keys (keys/, readable by `app` only) and uploaded CSV
# files (uploads/): a volume, so they outlive the container. In shared mode the database and the keys live in PostgreSQL.
ENV ASPNETCORE_HTTP_PORTS=8080 \
    BenchWeb__DataDirectory=/data
# Created as root and handed to `app` (APP_UID, 1654): a new named volume takes this owner from the image.
RUN mkdir -p /data && chown "$APP_UID:$APP_UID" /data
VOLUME /data
WORKDIR /app
COPY --from=build /app .
USER $APP_UID
EXPOSE 8080
ENTRYPOINT ["dotnet", "BenchWeb.dll"]
