from ladders.cli import main

main()
