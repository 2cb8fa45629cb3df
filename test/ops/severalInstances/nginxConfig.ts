/**
 * An nginx configuration for the gateways behind one address (the README's example, with the paths
 * of a temporary prefix): round robin, an idempotent GET retried on the next gateway when one does
 * not answer, WebSocket upgrades passed through, loopback only.
 */
export const nginxConfig = (options: { readonly listenPort: number; readonly upstreams: ReadonlyArray<string>; readonly prefix: string }) => `
worker_processes 1;
pid ${options.prefix}/nginx.pid;
error_log ${options.prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${options.prefix}/access.log;
  client_body_temp_path ${options.prefix}/client_body;
  proxy_temp_path ${options.prefix}/proxy;
  fastcgi_temp_path ${options.prefix}/fastcgi;
  uwsgi_temp_path ${options.prefix}/uwsgi;
  scgi_temp_path ${options.prefix}/scgi;

  upstream vault_gateway {
${options.upstreams.map((address) => `    server ${address} max_fails=1 fail_timeout=5s;`).join("\n")}
    keepalive 16;
  }
  map $http_upgrade $connection_upgrade {
    default upgrade;
    ""      "";
  }
  server {
    listen 127.0.0.1:${options.listenPort};
    location / {
      proxy_pass http://vault_gateway;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      # a gateway that refuses or drops the connection: the request goes to the next one (nginx
      # never resends a POST that reached a gateway)
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 1s;
      proxy_read_timeout 30s;
    }
    location = /v2/stream {
      proxy_pass http://vault_gateway;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_connect_timeout 1s;
      proxy_read_timeout 1h;
    }
  }
}
`
