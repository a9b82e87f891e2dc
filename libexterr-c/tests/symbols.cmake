# SPDX-License-Identifier: MIT
# cmake -DMAP= -DHEADER= -DLIB= -DNM= -P symbols.cmake
#
# Fails unless libexterr.map, the functions declared in exterr.h and the
# dynamic symbols that libexterr.so.1 defines are the same set, and every
# one of them is the default version (@@) of the node libexterr.map puts
# it in: EXTERR_1.0 for the 1.0 functions, EXTERR_1.1 for what 1.1 added.

cmake_policy(VERSION 3.16)
file(READ ${MAP} map)
# Drop comments, so a commented-out name cannot count as exported; ';' is
# CMake's list separator, so the script works on ',' instead.
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" map "${map}")
string(REGEX REPLACE "#[^\n]*" "" map "${map}")
string(REPLACE ";" "," map "${map}")

# "NODE { global: a; b; [local: *;] } [PARENT];", one after the other.
string(REGEX MATCHALL "EXTERR_[0-9.]+[ \t\n]*{[^}]*}[^,]*," nodes "${map}")
set(map_syms "")
set(node_names "")
set(prev "")
foreach(node IN LISTS nodes)
	string(REGEX MATCH "^EXTERR_[0-9.]+" name "${node}")
	string(REGEX MATCH "}[ \t\n]*([A-Z0-9_.]*)[ \t\n]*,$" _ "${node}")
	# Each node builds on the one before it: 1.1 on 1.0, 1.2 on 1.1.
	if(NOT "${CMAKE_MATCH_1}" STREQUAL "${prev}")
		message(FATAL_ERROR
			"${name} inherits \"${CMAKE_MATCH_1}\", want \"${prev}\"")
	endif()
	set(prev "${name}")
	list(APPEND node_names "${name}")
	# Only the global: part exports; local: * must stay in the first.
	string(REGEX REPLACE "local:.*" "" global "${node}")
	if(NOT "${global}" STREQUAL "${node}" AND NOT name STREQUAL "EXTERR_1.0")
		message(FATAL_ERROR "local: in ${name}: only EXTERR_1.0 has it")
	endif()
	string(REGEX MATCHALL "exterr_[a-z0-9_]+" syms "${global}")
	foreach(sym IN LISTS syms)
		if(DEFINED node_of_${sym})
			message(FATAL_ERROR
				"${sym} in ${node_of_${sym}} and ${name}")
		endif()
		set(node_of_${sym} "${name}")
		list(APPEND map_syms "${sym}")
	endforeach()
endforeach()
list(SORT map_syms)
list(GET node_names 0 first)
if(NOT first STREQUAL "EXTERR_1.0")
	message(FATAL_ERROR "the first node of ${MAP} is ${first}, not EXTERR_1.0")
endif()

# Declarations start a line with their type; comments start with / or *.
file(STRINGS ${HEADER} decls REGEX "^[a-z].*[ *]exterr_[a-z0-9_]+\\(")
set(hdr_syms "")
foreach(line IN LISTS decls)
	string(REGEX MATCH "[ *](exterr_[a-z0-9_]+)\\(" _ "${line}")
	list(APPEND hdr_syms "${CMAKE_MATCH_1}")
endforeach()
list(SORT hdr_syms)

execute_process(COMMAND ${NM} -D --defined-only ${LIB}
		OUTPUT_VARIABLE nm_out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "nm -D ${LIB} failed")
endif()
string(REPLACE "\n" ";" nm_lines "${nm_out}")
set(lib_syms "")
set(lib_nodes "")
foreach(line IN LISTS nm_lines)
	if(line MATCHES "^[0-9a-f]* +[A-Za-z] +(.+)$")
		set(sym "${CMAKE_MATCH_1}")
		if(sym IN_LIST node_names)
			list(APPEND lib_nodes "${sym}")
			continue()	# a version node itself
		endif()
		if(NOT sym MATCHES "^([^@]+)@@(.+)$")
			message(SEND_ERROR "unversioned or non-default export: ${sym}")
			continue()
		endif()
		set(name "${CMAKE_MATCH_1}")
		set(ver "${CMAKE_MATCH_2}")
		if(NOT DEFINED node_of_${name})
			message(SEND_ERROR "export not in ${MAP}: ${sym}")
		elseif(NOT "${ver}" STREQUAL "${node_of_${name}}")
			message(SEND_ERROR
				"${sym}: libexterr.map puts it in ${node_of_${name}}")
		endif()
		list(APPEND lib_syms "${name}")
	endif()
endforeach()
list(SORT lib_syms)
list(SORT lib_nodes)
set(want_nodes ${node_names})
list(SORT want_nodes)

foreach(sym IN LISTS map_syms)
	message(STATUS "map:    ${sym}@@${node_of_${sym}}")
endforeach()
message(STATUS "header: ${hdr_syms}")
message(STATUS "nm -D:  ${lib_syms}")
list(LENGTH map_syms n)
if(n EQUAL 0)
	message(FATAL_ERROR "no symbols found in ${MAP}")
endif()
if(NOT map_syms STREQUAL hdr_syms)
	message(FATAL_ERROR "libexterr.map and exterr.h disagree")
endif()
if(NOT map_syms STREQUAL lib_syms)
	message(FATAL_ERROR "libexterr.map and nm -D ${LIB} disagree")
endif()
if(NOT lib_nodes STREQUAL want_nodes)
	message(FATAL_ERROR "version nodes: nm -D has ${lib_nodes}, "
		"libexterr.map ${want_nodes}")
endif()
message(STATUS "symbols: ${n} agree, nodes ${node_names}")
