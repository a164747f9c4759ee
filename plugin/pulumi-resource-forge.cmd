@echo off
rem The forge provider plugin's launcher on Windows: pulumi-resource-forge beside it says what it does.
rem The executable of pulumi-forge-win32-x64 when npm installed it, else the compiled plugin on Node
rem (%FORGE_PLUGIN_NODE%, else node on PATH); FORGE_PLUGIN_RUNTIME=node runs it on Node anyway.
setlocal
set "here=%~dp0"
set "exe="
if /i "%FORGE_PLUGIN_RUNTIME%"=="node" goto node
if exist "%here%..\node_modules\pulumi-forge-win32-x64\pulumi-resource-forge.exe" set "exe=%here%..\node_modules\pulumi-forge-win32-x64\pulumi-resource-forge.exe"
if not defined exe if exist "%here%..\..\pulumi-forge-win32-x64\pulumi-resource-forge.exe" set "exe=%here%..\..\pulumi-forge-win32-x64\pulumi-resource-forge.exe"
if not defined exe goto node
"%exe%" %*
exit /b %ERRORLEVEL%
:node
set "node=%FORGE_PLUGIN_NODE%"
if not defined node set "node=node"
set "entry=%here%..\dist\provider\plugin\main.js"
if not exist "%entry%" set "entry=%here%dist\provider\plugin\main.js"
"%node%" "%entry%" %*
exit /b %ERRORLEVEL%
