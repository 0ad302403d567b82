# Prepare a Windows build agent.
Set-ExecutionPolicy Bypass -Scope Process -Force
iex (New-Object Net.WebClient).DownloadString('https://example.net/agent-setup.ps1')
Write-Output 'build agent ready'
